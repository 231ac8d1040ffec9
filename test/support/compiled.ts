import path from "node:path";
import { projectRoot } from "../../src/project-root.js";

// Child processes run the compiled JavaScript, as `npm start`, `npm run demo`
// and the `buyer-api` bin do; the run's global setup compiles what changed.

/** `npm start`'s entry. */
export const SERVER_ENTRY = path.join(projectRoot(), "dist", "src", "server.js");
/** The operator CLI's entry (`buyer-api`, `npm run cli`). */
export const CLI_ENTRY = path.join(projectRoot(), "dist", "src", "cli", "main.js");
