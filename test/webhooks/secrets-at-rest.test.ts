// Signing secrets are shown to the client that made them and kept nowhere in
// clear: not in any table (idempotency records included), not in the logs, not
// in the traces exported to a real OTLP/HTTP receiver. A keyed retry still
// gets its secret back.
import { randomUUID } from "node:crypto";
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { DEFAULT_WEBHOOK_CONFIG, loadConfig } from "../../src/config.js";
import { decryptSecret } from "../../src/domain/webhook-secrets.js";
import { createLogger } from "../../src/logger.js";
import { startTracing, type Tracing } from "../../src/telemetry/tracing.js";
import { graphqlData } from "../graphql/helpers.js";
import { eventually } from "../support/eventually.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { callApi, testConfig } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";
import { type OtlpReceiver, startOtlpReceiver } from "../telemetry/otlp-receiver.js";

const PUBLIC_URL = "https://93.184.215.14/hooks";

describe("signing secrets at rest", { timeout: 60_000 }, () => {
  let collector: OtlpReceiver;
  let tracing: Tracing;
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let app: App;
  const logLines: string[] = [];
  /** Every secret the API handed out in this file. */
  const secretsShown: string[] = [];

  beforeAll(async () => {
    collector = await startOtlpReceiver();
    const settings = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    }).tracing;
    if (!settings) throw new Error("an OTLP endpoint should turn tracing on");
    // The most talkative level, so that nothing logged at any level escapes the check.
    const logger = pino(
      { level: "trace", base: undefined },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          logLines.push(chunk.toString());
          done();
        },
      }),
    );
    tracing = await startTracing(settings, logger);
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Secret keeper");
    app = createApp({
      config: testConfig(),
      database,
      logger,
      tracing,
    });
  }, 120_000);
  afterAll(async () => {
    await tracing?.shutdown();
    await collector?.close();
    await database?.close();
  });

  const post = (path: string, body: unknown, idempotencyKey: string) =>
    callApi(app, "POST", path, { key: buyer.apiKey, body, headers: { "idempotency-key": idempotencyKey } });

  function shown(body: unknown): string {
    const { secret } = body as { secret: string };
    expect(secret).toMatch(/^whsec_/);
    secretsShown.push(secret);
    return secret;
  }

  it("a keyed create or rotation, retried, answers the same secret, and creates or rotates once", async () => {
    const createKey = randomUUID();
    const createBody = { url: PUBLIC_URL, enabled_events: ["order.updated"] };
    const created = await post("/webhook_endpoints", createBody, createKey);
    expect(created.status).toBe(201);
    const secret = shown(created.body);
    const { id } = created.body as { id: string };

    const replayed = await post("/webhook_endpoints", createBody, createKey);
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toEqual(created.body);
    expect(await database.prisma.webhookEndpoint.count({ where: { buyerId: buyer.buyerId } })).toBe(1);

    const rotateKey = randomUUID();
    const rotated = await post(`/webhook_endpoints/${id}/rotate_secret`, {}, rotateKey);
    expect(rotated.status).toBe(200);
    const rotatedSecret = shown(rotated.body);
    expect(rotatedSecret).not.toBe(secret);
    const rotatedAgain = await post(`/webhook_endpoints/${id}/rotate_secret`, {}, rotateKey);
    expect(rotatedAgain.headers.get("idempotent-replayed")).toBe("true");
    expect(rotatedAgain.body).toEqual(rotated.body);
    // Rotated once: the secret the create showed still signs beside the new one.
    const endpoint = await database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    const keys = DEFAULT_WEBHOOK_CONFIG.secretKeys;
    expect(decryptSecret(endpoint.secretCiphertext, id, keys)).toBe(rotatedSecret);
    expect(decryptSecret(endpoint.previousSecretCiphertext ?? "", id, keys)).toBe(secret);
  });

  it("a kept response is not replayed to another API key's request with the same Idempotency-Key", async () => {
    const other = await seedBuyer(database, "Other keeper");
    const key = randomUUID();
    const body = { url: PUBLIC_URL, enabled_events: ["*"] };
    const mine = await post("/webhook_endpoints", body, key);
    shown(mine.body);
    const theirs = await callApi(app, "POST", "/webhook_endpoints", {
      key: other.apiKey,
      body,
      headers: { "idempotency-key": key },
    });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(shown(theirs.body)).not.toBe((mine.body as { secret: string }).secret);
  });

  it("the GraphQL mutations that make a secret answer it", async () => {
    const endpointFields = "endpoint { id } secret";
    const input = { url: PUBLIC_URL, enabledEvents: ["*"] };
    const created = await graphqlData<{
      createWebhookEndpoint: { endpoint: { id: string }; secret: string };
    }>(
      app,
      `mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { ${endpointFields} } }`,
      { key: buyer.apiKey, variables: { input } },
    );
    shown(created.createWebhookEndpoint);
    const { id } = created.createWebhookEndpoint.endpoint;
    const rotated = await graphqlData<{ rotateWebhookEndpointSecret: { secret: string } }>(
      app,
      `mutation ($id: UUID!) { rotateWebhookEndpointSecret(id: $id) { ${endpointFields} } }`,
      { key: buyer.apiKey, variables: { id } },
    );
    shown(rotated.rotateWebhookEndpointSecret);
    const createdTyped = await graphqlData<{ webhookEndpointCreate: { secret: string } }>(
      app,
      `mutation ($input: CreateWebhookEndpointInput!) { webhookEndpointCreate(input: $input) { ${endpointFields} userErrors { code } } }`,
      { key: buyer.apiKey, variables: { input } },
    );
    shown(createdTyped.webhookEndpointCreate);
    const rotatedTyped = await graphqlData<{ webhookEndpointSecretRotate: { secret: string } }>(
      app,
      `mutation ($id: UUID!) { webhookEndpointSecretRotate(id: $id) { ${endpointFields} userErrors { code } } }`,
      { key: buyer.apiKey, variables: { id } },
    );
    shown(rotatedTyped.webhookEndpointSecretRotate);
  });

  it("after WEBHOOK_SECRET_KEY is rotated, a kept response replays while the old key is listed as previous", async () => {
    const key = randomUUID();
    const body = { url: PUBLIC_URL, enabled_events: ["order.created"] };
    const created = await post("/webhook_endpoints", body, key);
    shown(created.body);
    const withKeys = (secretKeys: Buffer[]) =>
      createApp({
        config: testConfig({ webhooks: { secretKeys } }),
        database,
        logger: createLogger("silent"),
      });
    const newKey = Buffer.alloc(32, 5);
    const retry = (rotatedApp: App) =>
      callApi(rotatedApp, "POST", "/webhook_endpoints", {
        key: buyer.apiKey,
        body,
        headers: { "idempotency-key": key },
      });
    const replayed = await retry(withKeys([newKey, ...DEFAULT_WEBHOOK_CONFIG.secretKeys]));
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toEqual(created.body);
    // Without the key that wrote it, the record cannot be read: a 5xx to retry later, never a second endpoint.
    const unreadable = await retry(withKeys([newKey]));
    expect(unreadable.status).toBe(500);
    const endpoints = await database.prisma.webhookEndpoint.count({
      where: { buyerId: buyer.buyerId, enabledEvents: { equals: ["order.created"] } },
    });
    expect(endpoints).toBe(1);
  });

  it("a kept body copied onto another record does not open there", async () => {
    const body = { url: PUBLIC_URL, enabled_events: ["supplier_user.created"] };
    const [first, second] = [randomUUID(), randomUUID()];
    shown((await post("/webhook_endpoints", body, first)).body);
    shown((await post("/webhook_endpoints", body, second)).body);
    await database.prisma.$executeRaw`
      UPDATE idempotency_records SET response_body = (SELECT response_body FROM idempotency_records WHERE key = ${first})
      WHERE key = ${second}`;
    expect((await post("/webhook_endpoints", body, second)).status).toBe(500);
  });

  it("a response an earlier version kept in clear still replays", async () => {
    const key = randomUUID();
    const body = { url: "https://10.0.0.1/hooks", enabled_events: ["*"] };
    const refused = await post("/webhook_endpoints", body, key);
    expect(refused.status).toBe(422);
    const updated = await database.prisma.$executeRaw`
      UPDATE idempotency_records SET response_body = ${refused.text} WHERE key = ${key}`;
    expect(updated).toBe(1);
    const replayed = await post("/webhook_endpoints", body, key);
    expect(replayed.headers.get("idempotent-replayed")).toBe("true");
    expect(replayed.body).toEqual(refused.body);
  });

  it("a record whose window has passed is deleted, so none kept in clear by an earlier version outlives it", async () => {
    const stale = randomUUID();
    await database.prisma.$executeRaw`
      INSERT INTO idempotency_records (api_key_id, key, request_hash, response_status, response_body, created_at, expires_at)
      VALUES (${buyer.apiKeyId}::uuid, ${stale}, 'h', 201, '{"secret":"whsec_c2VjcmV0IGtlcHQgaW4gY2xlYXI="}',
              now() - interval '25 hours', now() - interval '1 hour')`;
    // A process sweeps beside its first keyed request, and about once a minute after.
    const restarted = createApp({
      config: testConfig(),
      database,
      logger: createLogger("silent"),
    });
    const fresh = randomUUID();
    const created = await callApi(restarted, "POST", "/webhook_endpoints", {
      key: buyer.apiKey,
      body: { url: PUBLIC_URL, enabled_events: ["order.created"] },
      headers: { "idempotency-key": fresh },
    });
    shown(created.body);
    await eventually(async () => {
      const left = await database.prisma.idempotencyRecord.count({ where: { key: stale } });
      return left === 0 ? true : null;
    });
    expect(await database.prisma.idempotencyRecord.count({ where: { key: fresh } })).toBe(1);
  });

  /** The secret's key bytes as they might appear: with its prefix, or the base64 alone. */
  const tracesOf = (text: string) =>
    secretsShown
      .flatMap((secret) => [secret, secret.slice("whsec_".length)])
      .filter((part) => text.includes(part));

  it("no table holds a secret, or the text whsec_, in clear", async () => {
    expect(secretsShown.length).toBeGreaterThanOrEqual(7);
    const tables = await database.prisma.$queryRaw<{ name: string }[]>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`;
    expect(tables.map(({ name }) => name)).toEqual(
      expect.arrayContaining(["idempotency_records", "webhook_endpoints", "change_log", "webhook_events"]),
    );
    const kept = await database.prisma.$queryRaw<{ count: bigint }[]>`
      SELECT count(*) AS count FROM idempotency_records WHERE response_status < 300`;
    expect(Number(kept[0]?.count)).toBeGreaterThanOrEqual(3);
    for (const { name } of tables) {
      const rows = await database.prisma.$queryRawUnsafe<{ row: string }[]>(
        `SELECT t::text AS row FROM "${name.replaceAll('"', '""')}" t`,
      );
      for (const { row } of rows) {
        expect({ table: name, whsec: row.includes("whsec_"), secrets: tracesOf(row) }).toEqual({
          table: name,
          whsec: false,
          secrets: [],
        });
      }
    }
  });

  it("no log line and no exported span holds a secret", async () => {
    expect(logLines.length).toBeGreaterThan(0);
    for (const line of logLines) expect(tracesOf(line)).toEqual([]);
    await tracing.forceFlush();
    await collector.waitForSpan((span) => span.name === "POST /graphql");
    expect(collector.spans.length).toBeGreaterThan(0);
    for (const span of collector.spans) expect(tracesOf(JSON.stringify(span))).toEqual([]);
  });
});
