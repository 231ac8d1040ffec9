// The reference's request samples (a curl and a TypeScript one per
// operation) are run as a reader would run them: the curl samples by curl,
// the TypeScript ones type-checked against the generated client types and
// run with tsx, against a live server on a socket. Each must get the status
// the document gives for the operation's success.
import { execFile } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app.js";
import { DEFAULT_WEBHOOK_CONFIG } from "../../src/config.js";
import {
  attachTagsRequest,
  EVENT_ID,
  EXAMPLE_IDS,
  WEBHOOK_ENDPOINT_ID,
} from "../../src/contract/route-examples.js";
import { encryptSecret, generateSigningSecret } from "../../src/domain/webhook-secrets.js";
import {
  type CodeSample,
  SAMPLE_KEY_VARIABLE,
  SAMPLE_TYPES_MODULE,
  SAMPLE_URL_VARIABLE,
} from "../../src/http/code-samples.js";
import { createLogger } from "../../src/logger.js";
import { OPENAPI_PATH } from "../../src/openapi/document.js";
import type { OpenApiDocument, Operation } from "../../src/openapi/types.js";
import { projectRoot } from "../../src/project-root.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { testConfig } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

const run = promisify(execFile);

type SampledOperation = Operation & { "x-codeSamples"?: CodeSample[] };

interface SampledCase {
  name: string;
  successStatus: number;
  curl: string;
  typeScript: string;
}

/** One buyer's records, standing in for the ids the samples show. */
interface Tenant {
  buyer: SeededBuyer;
  orderId: string;
  eventId: string;
  endpointId: string;
  /** The endpoint the delete sample deletes, so the samples after it still find theirs. */
  deletedEndpointId: string;
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

describe("the request samples in the reference", { timeout: 240_000 }, () => {
  let database: TestDatabase;
  let server: Server;
  let apiUrl: string;
  let document: OpenApiDocument;
  let cases: SampledCase[];
  let forCurl: Tenant;
  let forTypeScript: Tenant;

  const tenant = async (name: string): Promise<Tenant> => {
    const buyer = await seedBuyer(database, name);
    const [orderId = ""] = await seedOrders(database, buyer, [
      { createdAt: new Date("2025-02-01T10:00:00.000Z"), orderStatus: "order_placed" },
    ]);
    const endpoint = async () => {
      const id = crypto.randomUUID();
      await database.prisma.webhookEndpoint.create({
        data: {
          id,
          buyerId: buyer.buyerId,
          url: "https://93.184.215.14/hooks",
          enabledEvents: ["*"],
          secretCiphertext: encryptSecret(generateSigningSecret(), id, DEFAULT_WEBHOOK_CONFIG.secretKeys),
        },
      });
      return id;
    };
    const eventId = crypto.randomUUID();
    await database.prisma.webhookEvent.create({
      data: {
        id: eventId,
        buyerId: buyer.buyerId,
        type: "order.updated",
        data: JSON.stringify({ object: { id: orderId } }),
      },
    });
    return { buyer, orderId, eventId, endpointId: await endpoint(), deletedEndpointId: await endpoint() };
  };

  /** The sample as a reader runs it: with their own records' ids where the sample shows example ones. */
  const withIdsOf = (tenant: Tenant, source: string, operationId: string): string => {
    const { buyer, orderId } = tenant;
    const exampleTagIds = (attachTagsRequest as { tag_ids: string[] }).tag_ids;
    const ids = new Map<string, string>([
      [EXAMPLE_IDS.SUPPLIER_ID, buyer.supplierId],
      [EXAMPLE_IDS.BUYER_PRODUCT_ID, buyer.buyerProductId],
      [EXAMPLE_IDS.ORDER_ID, orderId],
      [EXAMPLE_IDS.APPROVAL_ID, buyer.approvalId],
      [EVENT_ID, tenant.eventId],
      [
        WEBHOOK_ENDPOINT_ID,
        operationId === "deleteWebhookEndpoint" ? tenant.deletedEndpointId : tenant.endpointId,
      ],
      ...exampleTagIds.map((id, index): [string, string] => [id, buyer.tagIds[index] ?? ""]),
    ]);
    return source.replace(UUID, (id) => ids.get(id) ?? id);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    forCurl = await tenant("Curl Samples");
    forTypeScript = await tenant("TypeScript Samples");
    const app = createApp({
      // The webhook samples' host cannot be resolved here (no DNS); the address rules have their own tests.
      config: testConfig({ webhooks: { allowPrivateNetworks: true } }),
      database,
      logger: createLogger("silent"),
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    apiUrl = origin;
    document = (await (await fetch(`${origin}${OPENAPI_PATH}`)).json()) as OpenApiDocument;
    cases = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation: SampledOperation) => {
        const samples = operation["x-codeSamples"] ?? [];
        return {
          name: operation.operationId,
          successStatus: Number(Object.keys(operation.responses).find((status) => status.startsWith("2"))),
          curl: samples.find((sample) => sample.label === "curl")?.source ?? "",
          typeScript: samples.find((sample) => sample.label === "TypeScript")?.source ?? "",
        };
      }),
    );
  }, 60_000);
  afterAll(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    await database?.close();
  });

  it("are on every operation, one curl and one TypeScript, in a document that stays valid OpenAPI 3.1", async () => {
    expect(cases).toHaveLength(Object.values(document.paths).flatMap((item) => Object.keys(item)).length);
    expect(cases.length).toBeGreaterThan(6);
    for (const sample of cases) {
      expect(sample.curl, sample.name).toMatch(/^curl /);
      expect(sample.curl, sample.name).toContain(`X-API-KEY: $${SAMPLE_KEY_VARIABLE}`);
      expect(sample.typeScript, sample.name).toContain(`createClient<paths>`);
    }
    expect(document.info.description).toContain(`export ${SAMPLE_URL_VARIABLE}=`);
    const result = await new Validator().validate(
      structuredClone(document) as unknown as Record<string, unknown>,
    );
    expect(result.errors ?? []).toEqual([]);
  });

  it("get the documented success status when curl runs them", async () => {
    const env = {
      ...process.env,
      [SAMPLE_URL_VARIABLE]: apiUrl,
      [SAMPLE_KEY_VARIABLE]: forCurl.buyer.apiKey,
    };
    const statuses: Record<string, number> = {};
    for (const sample of cases) {
      // Only the status is written out, after whatever the sample asks of curl.
      const command = withIdsOf(forCurl, sample.curl, sample.name).replace(
        /^curl /,
        "curl -o /dev/null -w '%{http_code}' ",
      );
      const { stdout } = await run("bash", ["-c", command], { env });
      statuses[sample.name] = Number(stdout.trim());
    }
    expect(statuses).toEqual(Object.fromEntries(cases.map((sample) => [sample.name, sample.successStatus])));
  });

  it("type-check against the generated client types and get the documented success status when run", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "bpa-samples-"));
    try {
      // A reader's project: openapi-fetch installed, the types generated next to the sample.
      symlinkSync(path.join(projectRoot(), "node_modules"), path.join(folder, "node_modules"), "dir");
      writeFileSync(path.join(folder, "package.json"), JSON.stringify({ type: "module" }));
      copyFileSync(
        path.join(projectRoot(), "test", "generated", "api-types.ts"),
        path.join(folder, SAMPLE_TYPES_MODULE.replace(/\.js$/, ".ts")),
      );
      const files = cases.map((sample) => {
        const file = path.join(folder, `${sample.name}.ts`);
        writeFileSync(file, withIdsOf(forTypeScript, sample.typeScript, sample.name));
        return file;
      });
      writeFileSync(
        path.join(folder, "tsconfig.json"),
        JSON.stringify({
          compilerOptions: {
            strict: true,
            target: "es2022",
            module: "nodenext",
            moduleResolution: "nodenext",
            noEmit: true,
            skipLibCheck: true,
            types: ["node"],
          },
          files: files.map((file) => path.basename(file)),
        }),
      );
      const typeScriptCompiler = path.join(projectRoot(), "node_modules", "typescript", "bin", "tsc");
      await run(process.execPath, [typeScriptCompiler, "-p", folder], { cwd: folder }).catch(
        (error: { stdout?: string }) => {
          throw new Error(`the TypeScript samples do not type-check:\n${error.stdout ?? String(error)}`);
        },
      );

      // One process runs every sample in turn and reports the status each printed first.
      const runner = path.join(folder, "run-samples.ts");
      writeFileSync(
        runner,
        `const statuses: unknown[] = [];
const print = console.log;
console.log = (status: unknown) => { statuses.push(status); };
for (const file of ${JSON.stringify(files)}) await import(file);
print(JSON.stringify(statuses));
`,
      );
      const { stdout } = await run(process.execPath, ["--import", "tsx", runner], {
        cwd: folder,
        env: {
          ...process.env,
          [SAMPLE_URL_VARIABLE]: apiUrl,
          [SAMPLE_KEY_VARIABLE]: forTypeScript.buyer.apiKey,
        },
      });
      const statuses = JSON.parse(stdout.trim().split("\n").at(-1) ?? "[]") as number[];
      expect(Object.fromEntries(cases.map((sample, index) => [sample.name, statuses[index]]))).toEqual(
        Object.fromEntries(cases.map((sample) => [sample.name, sample.successStatus])),
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
