// The served OpenAPI document as integrators' tools take it, each with its
// default settings: Spectral (`spectral:oas`) and Redocly (recommended rules)
// find no error in it; orval and @hey-api/openapi-ts generate clients that,
// compiled and run against the live server on a socket, call the right URL,
// whose error types admit only the codes each operation answers with, and
// (hey-api) the types of the webhooks the receiving side gets.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { createLogger } from "../../src/logger.js";
import { OPENAPI_PATH } from "../../src/openapi/document.js";
import { projectRoot } from "../../src/project-root.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { testConfig } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

const run = promisify(execFile);

/** A tool of node_modules/.bin run with this process's Node, as `npx <tool>` would. */
async function tool(name: string, args: string[], cwd: string): Promise<{ stdout: string; code: number }> {
  const bin = path.join(projectRoot(), "node_modules", ".bin", name);
  try {
    const { stdout } = await run(process.execPath, [bin, ...args], {
      cwd,
      maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
    });
    return { stdout, code: 0 };
  } catch (error) {
    const { stdout, stderr, code } = error as { stdout?: string; stderr?: string; code?: number };
    if (typeof code !== "number") throw error;
    return { stdout: `${stdout ?? ""}${stdout ? "" : (stderr ?? "")}`, code };
  }
}

describe("the OpenAPI document in integrators' tools, with their default settings", {
  timeout: 240_000,
}, () => {
  let database: TestDatabase;
  let server: Server;
  let origin: string;
  let folder: string;
  let buyer: SeededBuyer;
  let orderIds: string[];
  /** The request targets the server received, in order. */
  const received: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Generated clients");
    orderIds = await seedOrders(database, buyer, [
      { createdAt: new Date("2025-03-01T10:00:00.000Z"), orderStatus: "order_placed" },
      { createdAt: new Date("2025-03-02T10:00:00.000Z"), orderStatus: "delivered" },
    ]);
    // The public origin is the socket's, so the document names the server the clients reach.
    let handle: (request: IncomingMessage, response: ServerResponse) => void = () => {};
    server = createServer((request, response) => {
      received.push(request.url ?? "");
      handle(request, response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const app = createApp({
      config: testConfig({ publicBaseUrl: origin }),
      database,
      logger: createLogger("silent"),
    });
    handle = (request, response) => void app(request, response);

    folder = mkdtempSync(path.join(tmpdir(), "bpa-generators-"));
    symlinkSync(path.join(projectRoot(), "node_modules"), path.join(folder, "node_modules"), "dir");
    writeFileSync(path.join(folder, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(path.join(folder, "openapi.json"), await (await fetch(`${origin}${OPENAPI_PATH}`)).text());
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await database?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it("has no error for Spectral's OpenAPI ruleset", async () => {
    writeFileSync(path.join(folder, ".spectral.yaml"), 'extends: ["spectral:oas"]\n');
    const { stdout } = await tool(
      "spectral",
      ["lint", "openapi.json", "--format", "json", "--quiet"],
      folder,
    );
    const results = JSON.parse(stdout || "[]") as { code: string; severity: number; message: string }[];
    // Severity 0 is an error; warnings (no `info.contact`) are advice.
    expect(results.filter((result) => result.severity === 0)).toEqual([]);
  });

  it("has no error for Redocly's recommended rules", async () => {
    const { stdout } = await tool("redocly", ["lint", "openapi.json", "--format", "json"], folder);
    const report = JSON.parse(stdout.slice(stdout.indexOf("{"))) as {
      totals: { errors: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    expect(report.problems.filter((problem) => problem.severity === "error")).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it("generates orval and hey-api clients that type-check, narrow each operation's codes and call the right URL", async () => {
    const orval = await tool("orval", ["--input", "openapi.json", "--output", "orval/api.ts"], folder);
    expect(orval.code, orval.stdout).toBe(0);
    const heyApi = await tool("openapi-ts", ["--input", "openapi.json", "--output", "hey-api"], folder);
    expect(heyApi.code, heyApi.stdout).toBe(0);

    writeFileSync(
      path.join(folder, "types.ts"),
      `import type { CreateSupplierUserProblem as HeyCreate, ListOrdersProblem as HeyList, OrderCreatedWebhookRequest } from "./hey-api/types.gen";
import type { CreateSupplierUserProblem as OrvalCreate, ListOrdersProblem as OrvalList } from "./orval/api";

export const created: [HeyCreate["code"], OrvalCreate["code"]] = ["already_exists", "already_exists"];
// @ts-expect-error listing orders never answers already_exists
export const listedByHey: HeyList["code"] = "already_exists";
// @ts-expect-error listing orders never answers already_exists
export const listedByOrval: OrvalList["code"] = "already_exists";
// The receiving side: a delivery of an order.created event.
export const delivered: OrderCreatedWebhookRequest["body"]["type"] = "order.created";
`,
    );
    writeFileSync(
      path.join(folder, "calls.ts"),
      `import axios from "axios";
import { getOrder, listOrders as listWithHey } from "./hey-api/sdk.gen";
import { listOrders as listWithOrval } from "./orval/api";

const headers = { "X-API-KEY": process.env.BUYER_API_KEY ?? "" };
// hey-api: no configuration; the document's server is the origin.
const hey = await listWithHey({ headers, query: { limit: 10 } });
const missing = await getOrder({ headers, path: { id: "00000000-0000-4000-8000-000000000000" } });
// orval calls the path relative to where it runs: a page's origin, or the base URL axios is given.
axios.defaults.baseURL = process.env.BUYER_API_ORIGIN;
const orval = await listWithOrval({ limit: 10 }, { headers });
console.log(JSON.stringify({
  hey: { status: hey.response?.status, ids: hey.data?.map((order) => order.id) },
  missing: { status: missing.response?.status, code: missing.error?.code },
  orval: { status: orval.status, ids: orval.data.map((order) => order.id) },
}));
`,
    );
    writeFileSync(
      path.join(folder, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: "es2022",
          module: "esnext",
          moduleResolution: "bundler",
          noEmit: true,
          skipLibCheck: true,
          types: ["node"],
        },
        files: ["types.ts", "calls.ts"],
      }),
    );
    const typeScriptCompiler = path.join(projectRoot(), "node_modules", "typescript", "bin", "tsc");
    await run(process.execPath, [typeScriptCompiler, "-p", folder], { cwd: folder }).catch(
      (error: { stdout?: string }) => {
        throw new Error(`the generated clients do not type-check:\n${error.stdout ?? String(error)}`);
      },
    );

    received.length = 0;
    const { stdout } = await run(process.execPath, ["--import", "tsx", "calls.ts"], {
      cwd: folder,
      env: { ...process.env, BUYER_API_KEY: buyer.apiKey, BUYER_API_ORIGIN: origin },
    });
    const newestFirst = [...orderIds].reverse();
    expect(JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}")).toEqual({
      hey: { status: 200, ids: newestFirst },
      missing: { status: 404, code: "not_found" },
      orval: { status: 200, ids: newestFirst },
    });
    expect(received).toEqual([
      "/api/public/buyer/v1/orders?limit=10",
      "/api/public/buyer/v1/orders/00000000-0000-4000-8000-000000000000",
      "/api/public/buyer/v1/orders?limit=10",
    ]);
  });
});
