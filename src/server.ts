// The process entry: `npm start`. The app itself is in app.ts.
import { runServer } from "./server/cluster.js";

await runServer();
