// npm run bench:goals: rewrites the goals table of docs/design/performance.md
// from the bench's goals and bench/last-goals.json (npm run bench does it after
// every run). npm run bench:goals -- --check: exits 1 when the table is stale.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { currentPerformanceDoc, PERFORMANCE_DOC } from "../bench/goal-table.js";
import { projectRoot } from "../src/project-root.js";

const file = path.join(projectRoot(), PERFORMANCE_DOC);
const written = currentPerformanceDoc();
if (written === readFileSync(file, "utf8")) {
  console.log(`${PERFORMANCE_DOC} is up to date`);
} else if (process.argv.includes("--check")) {
  console.error(`${PERFORMANCE_DOC} is stale: run npm run bench:goals`);
  process.exit(1);
} else {
  writeFileSync(file, written);
  console.log(`wrote ${PERFORMANCE_DOC}`);
}
