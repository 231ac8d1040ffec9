// The process entry: `npm start`. The app itself is in app.ts.
import { unsupportedNode } from "./server/node-version.js";

// Checked before the server's modules load: on an older Node.js they fail
// later, and again every second, with errors that do not name the cause.
const unsupported = unsupportedNode();
if (unsupported) {
  console.error(unsupported);
  process.exit(1);
}
const { runServer } = await import("./server/cluster.js");
await runServer();
