// npm run config:docs: writes the tables of environment variables in docs/reference/configuration.md
// and docs/reference/operations.md from the configuration table (src/config/table.ts).
// npm run config:docs -- --check: exits 1 when one of them is stale.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DOCUMENTED_VARIABLES, withVariablesTable } from "../src/config/documentation.js";
import { projectRoot } from "../src/project-root.js";

const check = process.argv.includes("--check");
let stale = false;
for (const { file, variables } of DOCUMENTED_VARIABLES) {
  const full = path.join(projectRoot(), file);
  const document = readFileSync(full, "utf8");
  const written = withVariablesTable(document, variables);
  if (written === document) {
    console.log(`${file} is up to date`);
  } else if (check) {
    console.error(`${file} is stale: run npm run config:docs`);
    stale = true;
  } else {
    writeFileSync(full, written);
    console.log(`wrote ${file}`);
  }
}
if (stale) process.exit(1);
