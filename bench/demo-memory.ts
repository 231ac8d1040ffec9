// The demo's resident set once it is up and idle: `npm run demo` as a
// newcomer runs it (demo data loaded into an in-memory PGlite, then served).
import path from "node:path";
import { settle, statusKb } from "./proc.js";
import { startServer } from "./processes.js";
import { judged, type Ratio } from "./report.js";

export async function demoIdleRss(root: string, logDir: string): Promise<Ratio> {
  const demo = await startServer({
    name: "demo",
    cwd: root,
    args: ["dist/src/cli/main.js", "demo", "--serve"],
    env: { DATABASE_URL: "pglite:memory", HOST: "127.0.0.1", LOG_LEVEL: "warn" },
    logFile: path.join(logDir, "demo.log"),
  });
  try {
    // Healthy once listening; what loading the data left running is waited out.
    await settle(demo.pid);
    const kb = statusKb(demo.pid, "VmRSS");
    return judged(
      "demo's RSS when idle (npm run demo, PGlite in memory), MB",
      kb === null ? [] : [kb / 1024],
      {},
      0,
    );
  } finally {
    await demo.stop();
  }
}
