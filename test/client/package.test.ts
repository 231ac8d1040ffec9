// The package as an integrator gets it: built, packed with `npm pack`,
// installed from the tarball into an empty folder, type-checked there by
// `tsc --strict`, and its sync-loop example run on the machine's Node.js 20
// against the demo server. Its examples are the ones the READMEs show, and
// its minified size with dependencies stays small.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BuyerApi } from "../../client/src/index.js";
import { projectRoot } from "../../src/project-root.js";
import { CLI_ENTRY } from "../support/compiled.js";

const run = promisify(execFile);
const root = projectRoot();
const packageFolder = path.join(root, "client");
const example = readFileSync(path.join(packageFolder, "examples", "sync-orders.mjs"), "utf8");
/** The demo's first buyer's tag "RSPO" (data/demo.json). */
const DEMO_TAG_ID = "0000de30-0005-4000-8000-000000000001";
const MAX_GZIP_BYTES = 20 * 1024;

/** The first `node` on PATH outside node_modules: the machine's own, not the runtime npm scripts pin. */
function machineNode(): string {
  for (const folder of (process.env.PATH ?? "").split(path.delimiter)) {
    if (folder.includes("node_modules")) continue;
    const candidate = path.join(folder, "node");
    try {
      readFileSync(candidate, { flag: "r" }).subarray(0, 0);
      return candidate;
    } catch {
      // not here
    }
  }
  return "/usr/bin/node";
}

describe("the packed client package", { timeout: 300_000 }, () => {
  let folder: string;
  let demo: ChildProcess;
  let exited: Promise<number | null>;
  let origin: string;
  let apiKey: string;

  beforeAll(async () => {
    demo = spawn(process.execPath, [CLI_ENTRY, "demo", "--serve"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: "pglite:memory", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    exited = new Promise((resolve) => demo.once("exit", (code) => resolve(code)));
    let output = "";
    const listening = new Promise<void>((resolve, reject) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        if (/API key: \S+/.test(output) && /listening on http:\/\/[\w.]+:\d+/.test(output)) resolve();
      };
      demo.stdout?.on("data", collect);
      demo.stderr?.on("data", collect);
      void exited.then((code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
    });

    folder = mkdtempSync(path.join(tmpdir(), "buyer-api-client-"));
    await run(
      process.execPath,
      [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "client/tsconfig.json"],
      {
        cwd: root,
      },
    );
    await run("npm", ["pack", "--pack-destination", folder], { cwd: packageFolder });
    const [tarball = ""] = readdirSync(folder).filter((name) => name.endsWith(".tgz"));
    writeFileSync(
      path.join(folder, "package.json"),
      JSON.stringify({ name: "integration", private: true, type: "module" }),
    );
    await run("npm", ["install", "--offline", "--no-audit", "--no-fund", `./${tarball}`], { cwd: folder });

    await listening;
    origin = `http://127.0.0.1:${/listening on http:\/\/[\w.]+:(\d+)/.exec(output)?.[1]}`;
    apiKey = /API key: (\S+)/.exec(output)?.[1] ?? "";
  }, 240_000);
  afterAll(async () => {
    demo?.kill("SIGTERM");
    await exited;
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it("is the example both READMEs show", () => {
    const shown = (file: string) =>
      [...readFileSync(path.join(root, file), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map(
        (match) => match[1],
      );
    expect(shown("client/README.md")).toContain(example);
    expect(shown("README.md")).toContain(example);
    expect(example.trimEnd().split("\n").length).toBeLessThanOrEqual(15);
  });

  it("installs in an empty folder and runs the sync loop on Node.js 20 against the demo", async () => {
    const node = machineNode();
    const { stdout: version } = await run(node, ["--version"]);
    expect(Number(/^v(\d+)/.exec(version)?.[1])).toBeGreaterThanOrEqual(20);
    expect(version.trim()).not.toBe(process.version);
    writeFileSync(path.join(folder, "sync-orders.mjs"), example);
    const { stdout } = await run(node, ["sync-orders.mjs"], {
      cwd: folder,
      env: { PATH: process.env.PATH, BUYER_API_URL: origin, BUYER_API_KEY: apiKey, SYNC_TAG_ID: DEMO_TAG_ID },
    });
    const confirmed = stdout.trim().split("\n");
    expect(confirmed.length).toBeGreaterThan(0);
    for (const line of confirmed) expect(line).toMatch(/^ORD-\d+ confirmed and tagged$/);

    // Nothing placed is left, and each confirmation and tagging is an event.
    const api = new BuyerApi({ baseUrl: origin, apiKey });
    const placed = [];
    for await (const order of api.orders.list({ order_status: ["order_placed"] })) placed.push(order);
    expect(placed).toEqual([]);
  });

  it("type-checks for a consumer under tsc --strict, codes narrowed per operation", async () => {
    writeFileSync(path.join(folder, "sync-orders.ts"), example);
    writeFileSync(
      path.join(folder, "errors.ts"),
      `import { BuyerApi, BuyerApiError, type ErrorCode, type WebhookEvent } from "@buyer-api/client";

export async function confirm(api: BuyerApi, id: string): Promise<string[]> {
  try {
    const order = await api.orders.update({ id, body: { order_status: "order_confirmed" } });
    return [order.order_status];
  } catch (error) {
    if (!BuyerApiError.is(error, "updateOrder")) throw error;
    const code: ErrorCode<"updateOrder"> = error.code;
    if (code === "invalid_transition") return error.problem.allowed_statuses ?? [];
    return error.errors.map((problem) => problem.field);
  }
}

export function describe(event: WebhookEvent): string {
  // An event too large to carry its record names where to read it.
  if ("object_omitted" in event.data) return event.data.object_omitted.url ?? event.type;
  switch (event.type) {
    case "order.updated":
      return event.data.object.order_status;
    case "tagging.created":
      return event.data.object.taggable_type;
    default:
      return event.type;
  }
}

export function neverAnswered(error: BuyerApiError<"getOrder">): boolean {
  // @ts-expect-error a read of an order never answers already_exists
  return error.code === "already_exists";
}

export async function misuse(api: BuyerApi): Promise<void> {
  // @ts-expect-error an order's id is required
  await api.orders.get({});
  // @ts-expect-error not an order status
  await api.orders.update({ id: "x", body: { order_status: "lost" } });
  // @ts-expect-error orders have no such filter
  api.orders.list({ colour: "red" });
}
`,
    );
    const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
    const result = await run(
      process.execPath,
      [
        tsc,
        "--strict",
        "--noEmit",
        "--target",
        "es2022",
        "--module",
        "nodenext",
        "--moduleResolution",
        "nodenext",
        "--types",
        "node",
        "--typeRoots",
        path.join(root, "node_modules", "@types"),
        "sync-orders.ts",
        "errors.ts",
      ],
      { cwd: folder },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    expect(result.stdout).toBe("");
  });

  it("is at most 20 KB minified and gzipped, with its dependencies", async () => {
    const bundle = await build({
      entryPoints: [path.join(folder, "node_modules", "@buyer-api", "client", "dist", "index.js")],
      bundle: true,
      minify: true,
      format: "esm",
      platform: "neutral",
      write: false,
    });
    const bytes = gzipSync(bundle.outputFiles[0]?.contents ?? new Uint8Array()).length;
    expect(bytes).toBeGreaterThan(1_000);
    expect(bytes).toBeLessThanOrEqual(MAX_GZIP_BYTES);
  });
});
