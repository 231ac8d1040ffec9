// npm run schema:print: writes schema.graphql from the code.
// npm run schema:print -- --check: exits 1 when schema.graphql is stale.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { printSchemaFile, SCHEMA_FILE } from "../src/graphql/schema-file.js";

const printed = printSchemaFile();
if (process.argv.includes("--check")) {
  const committed = existsSync(SCHEMA_FILE) ? readFileSync(SCHEMA_FILE, "utf8") : "";
  if (committed !== printed) {
    console.error(`${SCHEMA_FILE} is stale: run npm run schema:print`);
    process.exit(1);
  }
  console.log(`${SCHEMA_FILE} is up to date`);
} else {
  writeFileSync(SCHEMA_FILE, printed);
  console.log(`wrote ${SCHEMA_FILE}`);
}
