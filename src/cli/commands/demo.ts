import type { Command } from "commander";
import { databaseOptions } from "../../config/database-options.js";
import { loadConfig } from "../../config.js";
import { noteServingUrl } from "../../db/data-directory-lock.js";
import { localUrl } from "../../server/listen.js";
import type { DemoData, DemoOutcome } from "../demo-data.js";

export function examples(demo: DemoData, baseUrl: string): string {
  const api = `${baseUrl}/api/public/buyer/v1`;
  const key = `-H 'X-API-KEY: ${demo.apiKey}'`;
  return [
    "# orders placed, newest first",
    `curl -s -g ${key} '${api}/orders?order_status[]=order_placed&limit=5'`,
    "# buyer product approvals",
    `curl -s ${key} '${api}/buyer_product_approvals'`,
    "# confirm an order and set the purchase order reference",
    `curl -s -X PATCH ${key} -H 'Content-Type: application/json' \\\n` +
      `  -d '{"order_status":"order_confirmed","purchase_order_reference":"PO-DEMO-1"}' \\\n` +
      `  '${api}/orders/${demo.orderId}'`,
  ].join("\n");
}

/** What the demo says about the data: loaded, or served as it was found. */
function describeData(outcome: DemoOutcome, database: string): string {
  const key = outcome.demo ? `Buyer: ${outcome.demo.buyerName}\nAPI key: ${outcome.demo.apiKey}\n` : "";
  if (outcome.loaded) return `Demo data loaded into ${database}.\n${key}`;
  const found = `${database} already has data, left as it is (the demo data goes into an empty database only).\n`;
  return outcome.demo
    ? `${found}${key}`
    : `${found}The demo API key is not in it: issue one with \`buyer-api keys create\` while the server is stopped.\n`;
}

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .summary("load the demo dataset and print an API key and example requests")
    .description(
      "Loads the demo dataset (data/demo.json: 2 buyers, suppliers, catalogue, approvals, about 50 orders) " +
        "and prints the demo API key with example requests. The data goes into an empty database only: " +
        "a database that already has data is left as it is, changes made through the API included.",
    )
    .option("--serve", "then start the HTTP server on the same database")
    .action(async (options: { serve?: boolean }) => {
      // A demo's webhooks go to receivers on the same machine, over plain http, unless set otherwise.
      const environment: NodeJS.ProcessEnv = {
        WEBHOOK_ALLOW_HTTP: "true",
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
        ...process.env,
      };
      let config = loadConfig(environment);
      // Loaded only here: the other commands need none of the HTTP stack.
      const server = options.serve ? await import("../../server/start.js") : null;
      if (server) {
        // The port first: a busy one is told before the database opens. Its
        // origin is the one the demo prints and its links name, unless
        // PUBLIC_BASE_URL says otherwise.
        const port = await server.portOrExit({ port: config.port, host: config.host });
        config = loadConfig({
          ...environment,
          PUBLIC_BASE_URL: environment.PUBLIC_BASE_URL || localUrl(config.host, port),
          PORT: String(port),
        });
      }
      const { openDatabaseForUse } = await import("../../db/startup.js");
      const { createLogger } = await import("../../logger.js");
      const { loadDemoData } = await import("../demo-data.js");
      const database = await openDatabaseForUse(
        config.database,
        databaseOptions(config, server ? { server: createLogger(config.logLevel) } : "command"),
      );
      let handedToServer = false;
      try {
        const outcome = await loadDemoData(database);
        const { demo } = outcome;
        const data = describeData(outcome, config.database.description);
        // The origin the API's links name, so that what the demo prints and what the API answers agree.
        const url = new URL(config.publicBaseUrl).origin;
        if (!server) {
          process.stdout.write(
            demo
              ? `${data}\nOnce the server runs (npm start, PORT=${config.port}):\n\n${examples(demo, url)}\n`
              : data,
          );
          return;
        }
        // The server keeps using this database (an in-memory PGlite has no
        // other copy) and closes it when it shuts down.
        handedToServer = true;
        await server.startServer({ config, database, demoApiKey: demo?.apiKey });
        // A command refused the PGlite folder names this address.
        noteServingUrl(url);
        process.stdout.write(
          demo
            ? `${data}\nOpen ${url}/ for the reference and the GraphQL console (the demo key is filled in).\n\n` +
                `${examples(demo, url)}\n`
            : `${data}\nOpen ${url}/ for the reference and the GraphQL console.\n`,
        );
      } catch (error) {
        handedToServer = false;
        throw error;
      } finally {
        if (!handedToServer) await database.close();
      }
    });
}
