// Entry of a peer server process: `node dist/bench/peers/serve.js <floor|prisma|sofa|postgraphile|otlp-sink>`,
// configured by PORT, DATABASE_URL, APP_BASE_URL and FLOOR_RESPONSES (a JSON file).
import { readFileSync } from "node:fs";
import { createServer, type RequestListener } from "node:http";
import { fileURLToPath } from "node:url";
import { poolOptions } from "../../src/config/database-options.js";
import { DEFAULT_CONFIG } from "../../src/config.js";
import { openDatabase } from "../../src/db/database.js";
import { parseDatabaseUrl } from "../../src/db/database-url.js";
import { type CannedResponse, createFloorListener } from "./floor.js";
import { loadPostGraphilePeer } from "./postgraphile-peer.js";
import { createPrismaListener } from "./prisma-handler.js";
import { createSofaListener } from "./sofa.js";

const peer = process.argv[2];
const port = Number(process.env.PORT ?? "0");
const appBaseUrl = process.env.APP_BASE_URL ?? "http://localhost:4000";

async function listener(): Promise<{ listener: RequestListener; close: () => Promise<void> }> {
  if (peer === "otlp-sink") {
    // Accepts every export (and /healthz) and keeps nothing.
    const sink: RequestListener = (request, response) => {
      request.resume();
      request.on("end", () => response.writeHead(200, { "content-type": "application/x-protobuf" }).end());
    };
    return { listener: sink, close: async () => {} };
  }
  if (peer === "floor") {
    const file = process.env.FLOOR_RESPONSES;
    if (!file) throw new Error("FLOOR_RESPONSES names the JSON file of canned responses");
    const responses = JSON.parse(readFileSync(file, "utf8")) as CannedResponse[];
    return { listener: createFloorListener(responses), close: async () => {} };
  }
  if (peer === "postgraphile") {
    // From dist/bench/peers/ up to the checkout whose build this is.
    const root = fileURLToPath(new URL("../../../", import.meta.url));
    const { createPostGraphileListener } = await loadPostGraphilePeer(root);
    return createPostGraphileListener({ connectionString: process.env.DATABASE_URL ?? "" });
  }
  // The gateway's pools at the configuration's defaults, so no peer gets more connections.
  const database = await openDatabase(
    parseDatabaseUrl(process.env.DATABASE_URL),
    poolOptions(DEFAULT_CONFIG),
  );
  const options = { database, appBaseUrl };
  if (peer === "prisma") return { listener: createPrismaListener(options), close: () => database.close() };
  if (peer === "sofa") return { listener: createSofaListener(options), close: () => database.close() };
  throw new Error(`unknown peer '${peer}': use floor, prisma, sofa, postgraphile or otlp-sink`);
}

const { listener: handle, close } = await listener();
const server = createServer(handle);
server.listen(port, "127.0.0.1", () => console.log(`peer ${peer} listening on ${port}`));
process.once("SIGTERM", () => {
  server.close();
  server.closeAllConnections();
  void close().finally(() => process.exit(0));
});
