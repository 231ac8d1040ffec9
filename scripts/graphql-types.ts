// npm run graphql:types: the dashboard test's typed documents and persisted-documents
// manifest, from schema.graphql and test/dashboard/screens.ts (graphql-codegen, client preset).
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { renderDashboardTypes } from "../tools/dashboard-types.js";

for (const { filename, content } of await renderDashboardTypes()) {
  mkdirSync(dirname(filename), { recursive: true });
  writeFileSync(filename, content);
  console.log(`wrote ${filename}`);
}
