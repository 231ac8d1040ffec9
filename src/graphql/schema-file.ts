import path from "node:path";
import { printSchema } from "graphql";
import { projectRoot } from "../project-root.js";
import { schema } from "../schema/index.js";

/** schema.graphql at the repository root: the GraphQL API as front-end tooling (codegen, linters) reads it. */
export const SCHEMA_FILE = path.join(projectRoot(), "schema.graphql");

/** The committed file's content for the schema in the code. */
export function printSchemaFile(): string {
  return `# Generated from src/schema by \`npm run schema:print\`; edit the code, not this file.\n\n${printSchema(schema)}\n`;
}
