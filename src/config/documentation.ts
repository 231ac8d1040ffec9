// The tables of environment variables in docs/reference/configuration.md and docs/reference/operations.md,
// written from the configuration table: `npm run config:docs` rewrites them,
// and a test fails when a document's table is not what the table says.
import { listVariables, type VariableDocs } from "./setting.js";
import { CONFIG_TABLE } from "./table.js";

export const GENERATED_START =
  "<!-- environment variables: written by npm run config:docs from src/config/table.ts -->";
export const GENERATED_END = "<!-- end of environment variables -->";

const { webhooks, ...general } = CONFIG_TABLE;

/** Each document with a table, and the variables it lists: the webhooks' in operations.md, the rest in configuration.md. */
export const DOCUMENTED_VARIABLES: readonly { file: string; variables: readonly VariableDocs[] }[] = [
  { file: "docs/reference/configuration.md", variables: listVariables(general) },
  { file: "docs/reference/operations.md", variables: listVariables(webhooks) },
];

function defaultCell(variable: VariableDocs): string {
  if (variable.default === null) return variable.whenUnset ?? "";
  return variable.default === "" ? "(empty)" : `\`${variable.default}\``;
}

const cell = (text: string) => text.replaceAll("|", "\\|");

export function variablesTable(variables: readonly VariableDocs[]): string {
  const rows = variables.map(
    (variable) => `| \`${variable.name}\` | ${cell(defaultCell(variable))} | ${cell(variable.description)} |`,
  );
  return ["| variable | default | meaning |", "|---|---|---|", ...rows].join("\n");
}

/** The document's text between its markers; null when it has no generated table. */
export function generatedSection(document: string): string | null {
  const start = document.indexOf(GENERATED_START);
  const end = document.indexOf(GENERATED_END);
  if (start < 0 || end < start) return null;
  return document.slice(start + GENERATED_START.length, end).trim();
}

/** The document with the text between its markers replaced by the table. */
export function withVariablesTable(document: string, variables: readonly VariableDocs[]): string {
  const start = document.indexOf(GENERATED_START);
  const end = document.indexOf(GENERATED_END);
  if (start < 0 || end < start) throw new Error(`no ${GENERATED_START} … ${GENERATED_END} in the document`);
  const table = variablesTable(variables);
  // Blank lines around the table, so that no Markdown reader takes a marker for a row.
  return `${document.slice(0, start + GENERATED_START.length)}\n\n${table}\n\n${document.slice(end)}`;
}
