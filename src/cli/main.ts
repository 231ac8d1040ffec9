import { runCli } from "./program.js";

// exitCode rather than exit(): stdout is flushed before Node ends.
process.exitCode = await runCli(process.argv);
