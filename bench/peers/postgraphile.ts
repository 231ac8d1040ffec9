import type { IncomingMessage, RequestListener } from "node:http";
import pg from "pg";
import { postgraphile } from "postgraphile";
import { PgSelectStep, TYPES } from "postgraphile/@dataplan/pg";
import { makePgService } from "postgraphile/adaptors/pg";
import { ConnectionStep, context, type Step } from "postgraphile/grafast";
import { grafserv } from "postgraphile/grafserv/node";
import { sql } from "postgraphile/pg-sql2";
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";
import { makeWrapPlansPlugin } from "postgraphile/utils";
import type { Viewer } from "../../src/auth/viewer.js";
import { prismaOverPool, type QueryObserver } from "../../src/db/readers.js";
import { createAuthenticator } from "./authenticator.js";
import type {
  PostGraphilePeer,
  PostGraphilePeerModule,
  PostGraphilePeerOptions,
} from "./postgraphile-peer.js";

declare global {
  namespace Grafast {
    interface Context {
      /** The buyer of the request's API key; every request reaching the schema has one. */
      buyerId: string;
    }
  }
}

/**
 * Only the reading buyer's rows: a plan of a list field narrowed to
 * `buyer_id` = the context's buyer, as the gateway's resolvers narrow theirs.
 */
function narrowToBuyer(plan: () => Step): Step {
  const $connection = plan();
  if (!($connection instanceof ConnectionStep)) throw new Error("expected a connection's plan");
  const $select = $connection.getSubplan();
  if (!($select instanceof PgSelectStep)) throw new Error("expected a connection of table rows");
  $select.where(
    sql`${$select.alias}.buyer_id = ${$select.placeholder(context().get("buyerId"), TYPES.uuid)}`,
  );
  return $connection;
}

/**
 * Tells `onQuery` of every statement any connection of `pool` sends, with its
 * parameters, Prisma's and PostGraphile's alike: PostGraphile reports none of its own.
 */
function observeStatements(pool: pg.Pool, onQuery: QueryObserver): void {
  pool.on("connect", (client) => {
    const query = client.query;
    Object.defineProperty(client, "query", {
      value(...args: unknown[]) {
        const [first] = args;
        const text =
          typeof first === "string"
            ? first
            : typeof first === "object" && first !== null && "text" in first && typeof first.text === "string"
              ? first.text
              : "";
        const second = args[1];
        const values = Array.isArray(second)
          ? second
          : typeof first === "object" && first !== null && "values" in first && Array.isArray(first.values)
            ? first.values
            : [];
        onQuery(text, JSON.stringify(values));
        return Reflect.apply(query, client, args);
      },
    });
  });
}

/**
 * Peer (d): PostGraphile v5, which compiles a GraphQL operation to SQL,
 * introspecting the same database. Same key lookup as the other peers, on
 * one pool of the gateway's size shared with PostGraphile; a request
 * without a valid key is refused before GraphQL, and the lists the bench's
 * query reads (orders, a supplier's connections) reach only the key's
 * buyer (the dashboard's root lists too; lists under a record are its own). Defaults of the Amber preset, except what this
 * schema forces: enum values with spaces ("Bulk Bag") get GraphQL names,
 * and the supplier_connections table's type is renamed, since Relay's
 * connection type of suppliers takes its name.
 */
export async function createPostGraphileListener(
  options: PostGraphilePeerOptions,
): Promise<PostGraphilePeer> {
  // The gateway's pool size (openDatabase's default), so that no server gets more connections.
  const pool = new pg.Pool({ connectionString: options.connectionString, max: 10 });
  pool.on("error", () => {});
  if (options.onQuery) observeStatements(pool, options.onQuery);
  // The key lookup's statements pass through the same pool, so they are observed there.
  const prisma = prismaOverPool(pool, { onQuery: undefined, transactionWaitMs: 2000 });
  const authenticator = createAuthenticator(prisma, (error) => console.error(error));
  const viewers = new WeakMap<IncomingMessage, Viewer>();

  const instance = postgraphile({
    extends: [PostGraphileAmberPreset],
    plugins: [
      {
        name: "BenchNamesPlugin",
        version: "1.0.0",
        inflection: {
          replace: {
            enumValue(previous, _options, value, codec) {
              return previous ? previous(value.replace(/ /g, "_"), codec) : value;
            },
            tableType(previous, _options, codec) {
              if (codec.extensions?.pg?.name === "supplier_connections") return "BuyerSupplierConnection";
              return previous ? previous(codec) : codec.name;
            },
          },
        },
      },
      makeWrapPlansPlugin({
        Query: {
          allOrders: (plan) => narrowToBuyer(plan),
          allBuyerProducts: (plan) => narrowToBuyer(plan),
          allBuyerProductApprovals: (plan) => narrowToBuyer(plan),
        },
        Supplier: { buyerSupplierConnectionsBySupplierId: (plan) => narrowToBuyer(plan) },
      }),
    ],
    pgServices: [makePgService({ pool, schemas: ["public"] })],
    grafast: {
      context(requestContext) {
        const request = requestContext.node?.req;
        const viewer = request ? viewers.get(request) : undefined;
        if (!viewer) throw new Error("a request reached PostGraphile without a viewer");
        return { buyerId: viewer.buyerId };
      },
    },
    grafserv: { graphqlPath: "/graphql", graphiql: false },
  });
  // Introspected and built before the process reports itself healthy.
  await instance.getSchema();
  const serv = instance.createServ(grafserv);
  const handler = serv.createHandler();

  const listener: RequestListener = (request, response) => {
    if (request.url === "/healthz") {
      response.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
      return;
    }
    const key = request.headers["x-api-key"];
    authenticator
      .authenticate(typeof key === "string" ? key : null)
      .then((viewer) => {
        if (!viewer) {
          response.writeHead(401, { "content-type": "application/json" }).end('{"status":401}');
          return;
        }
        viewers.set(request, viewer);
        handler(request, response);
      })
      .catch((error: unknown) => {
        console.error(error);
        response.writeHead(500, { "content-type": "application/json" }).end('{"status":500}');
      });
  };
  return {
    listener,
    async close() {
      // Releases the server and PostGraphile's hold on the pool, not the pool itself.
      await instance.release();
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

createPostGraphileListener satisfies PostGraphilePeerModule["createPostGraphileListener"];
