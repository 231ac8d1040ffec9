// npm run openapi:types: writes the typed-client types, and the client package's
// types and table of operations, for the current document.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { renderGeneratedFiles } from "../tools/api-types.js";

for (const [file, text] of Object.entries(await renderGeneratedFiles())) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  console.log(`wrote ${file}`);
}
