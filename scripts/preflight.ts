// `npm start` and `npm run demo`, before the build: a bad variable or a busy
// port is told at once, in one line, not after the build and the database.
import { loadConfigOrExit, portOrExit } from "../src/server/preflight.js";

const config = loadConfigOrExit();
if (config.port !== 0) await portOrExit({ port: config.port, host: config.host });
