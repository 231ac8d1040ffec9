// npm run bench:replica [-- --seconds 10 --rounds 3 --connections 8]
// Uncached order pages on a primary of the bench's own with one streaming
// replica (bench/replica.ts): the primary's CPU per read with the replica and
// without, and the share of reads the replica serves under 10 % writes.
// Figures go to docs/design/performance.md; never asserted in tests.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { replicaTable, runReplicaBench } from "../bench/replica.js";
import { projectRoot } from "../src/project-root.js";

const { values } = parseArgs({
  options: {
    seconds: { type: "string", default: "10" },
    rounds: { type: "string", default: "3" },
    connections: { type: "string", default: "8" },
  },
});
const logDir = path.join(projectRoot(), "bench-results", "replica-logs");
mkdirSync(logDir, { recursive: true });
const log = (line: string) =>
  console.log(`[bench:replica ${new Date().toISOString().slice(11, 19)}] ${line}`);
const result = await runReplicaBench(
  {
    root: projectRoot(),
    logDir,
    seconds: Number(values.seconds),
    rounds: Number(values.rounds),
    connections: Number(values.connections),
  },
  log,
);
if (result) console.log(`\n${replicaTable(result)}\n`);
