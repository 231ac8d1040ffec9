// Webhook endpoints over GraphQL, as front-end teams manage them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql, graphqlData } from "../graphql/helpers.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";

const ENDPOINT = "id url description enabledEvents status disabledReason failingSince";

interface Endpoint {
  id: string;
  url: string;
  description: string | null;
  enabledEvents: string[];
  status: string;
  disabledReason: string | null;
}

describe("webhook endpoints over GraphQL", () => {
  let test: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;

  beforeAll(async () => {
    test = await createTestApp();
    buyer = await seedBuyer(test.database, "Hooks");
    other = await seedBuyer(test.database, "Other");
  });
  afterAll(() => test.close());

  const create = (input: Record<string, unknown>, key = buyer.apiKey) =>
    graphql<{ createWebhookEndpoint: { endpoint: Endpoint; secret: string } }>(
      test.app,
      `mutation($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret endpoint { ${ENDPOINT} } } }`,
      { key, variables: { input } },
    );

  it("creates an endpoint and shows its secret once; the database holds only ciphertext", async () => {
    const created = await create({
      url: "https://93.184.215.14/hooks",
      enabledEvents: ["order.updated", "order.created"],
      description: "ERP",
    });
    expect(created.errors).toBeUndefined();
    const result = created.data?.createWebhookEndpoint;
    expect(result?.secret).toMatch(/^whsec_/);
    expect(result?.endpoint).toMatchObject({
      status: "ENABLED",
      enabledEvents: ["order.updated", "order.created"],
    });
    const row = await test.database.prisma.webhookEndpoint.findUniqueOrThrow({
      where: { id: result?.endpoint.id },
    });
    expect(JSON.stringify(row)).not.toContain(result?.secret.slice(6));

    const read = await graphqlData<{ webhookEndpoint: Endpoint & { secret?: string } }>(
      test.app,
      `query($id: UUID!) { webhookEndpoint(id: $id) { ${ENDPOINT} } }`,
      { key: buyer.apiKey, variables: { id: result?.endpoint.id } },
    );
    expect(read.webhookEndpoint.url).toBe("https://93.184.215.14/hooks");
  });

  it("refuses a bad URL, a private address and unknown event types, naming each field", async () => {
    const refused = await create({
      url: "https://10.0.0.5/hooks",
      enabledEvents: ["order.updated", "order.deleted", "*"],
    });
    expect(refused.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const problems = (refused.errors?.[0]?.extensions?.fieldErrors ?? []) as { path: unknown[] }[];
    const fields = problems.map((problem) => problem.path.join("."));
    expect(fields).toEqual(["input.url", "input.enabledEvents.1", "input.enabledEvents.2"]);
    const plainHttp = await create({ url: "http://93.184.215.14/", enabledEvents: ["*"] });
    expect(plainHttp.errors?.[0]?.message).toContain("https");
    expect(
      await test.database.prisma.webhookEndpoint.count({ where: { url: { contains: "10.0.0.5" } } }),
    ).toBe(0);
  });

  it("updates, disables, re-enables, rotates and deletes; another buyer's endpoint is NOT_FOUND", async () => {
    const created = await create({ url: "https://93.184.215.14/a", enabledEvents: ["*"] });
    const id = created.data?.createWebhookEndpoint.endpoint.id;
    const firstSecret = created.data?.createWebhookEndpoint.secret;

    const disabled = await graphqlData<{ updateWebhookEndpoint: Endpoint }>(
      test.app,
      `mutation($id: UUID!) { updateWebhookEndpoint(id: $id, input: { status: DISABLED, description: "paused" }) { ${ENDPOINT} } }`,
      { key: buyer.apiKey, variables: { id } },
    );
    expect(disabled.updateWebhookEndpoint).toMatchObject({
      status: "DISABLED",
      disabledReason: "requested",
      description: "paused",
    });

    const rotated = await graphqlData<{ rotateWebhookEndpointSecret: { secret: string } }>(
      test.app,
      "mutation($id: UUID!) { rotateWebhookEndpointSecret(id: $id) { secret endpoint { id } } }",
      { key: buyer.apiKey, variables: { id } },
    );
    expect(rotated.rotateWebhookEndpointSecret.secret).not.toBe(firstSecret);
    const row = await test.database.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id } });
    expect(row.previousSecretExpiresAt?.getTime()).toBeGreaterThan(Date.now() + 23 * 3600_000);

    const foreign = await graphql(test.app, "mutation($id: UUID!) { deleteWebhookEndpoint(id: $id) }", {
      key: other.apiKey,
      variables: { id },
    });
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const hidden = await graphqlData<{ webhookEndpoint: null }>(
      test.app,
      "query($id: UUID!) { webhookEndpoint(id: $id) { id } }",
      { key: other.apiKey, variables: { id } },
    );
    expect(hidden.webhookEndpoint).toBeNull();

    const deleted = await graphqlData<{ deleteWebhookEndpoint: string }>(
      test.app,
      "mutation($id: UUID!) { deleteWebhookEndpoint(id: $id) }",
      { key: buyer.apiKey, variables: { id } },
    );
    expect(deleted.deleteWebhookEndpoint).toBe(id);
    expect(await test.database.prisma.webhookEndpoint.count({ where: { id } })).toBe(0);
  });

  it("lists only the buyer's endpoints, newest first", async () => {
    const list = await graphqlData<{ webhookEndpoints: { edges: { node: Endpoint }[] } }>(
      test.app,
      `{ webhookEndpoints { edges { node { ${ENDPOINT} } } } }`,
      { key: other.apiKey },
    );
    expect(list.webhookEndpoints.edges).toEqual([]);
  });

  it("webhookEndpointCreate answers refusals in userErrors, and the secret once on success", async () => {
    const mutation = `mutation($input: CreateWebhookEndpointInput!) {
      webhookEndpointCreate(input: $input) { secret endpoint { id } userErrors { code field fieldCode } } }`;
    const refused = await graphqlData<{
      webhookEndpointCreate: {
        secret: null;
        endpoint: null;
        userErrors: { code: string; field: string[] }[];
      };
    }>(test.app, mutation, {
      key: buyer.apiKey,
      variables: { input: { url: "https://127.0.0.1/x", enabledEvents: ["*"] } },
    });
    expect(refused.webhookEndpointCreate).toEqual({
      secret: null,
      endpoint: null,
      userErrors: [{ code: "VALIDATION_FAILED", field: ["input", "url"], fieldCode: "INVALID" }],
    });
    const created = await graphqlData<{ webhookEndpointCreate: { secret: string; userErrors: unknown[] } }>(
      test.app,
      mutation,
      { key: buyer.apiKey, variables: { input: { url: "https://93.184.215.14/x", enabledEvents: ["*"] } } },
    );
    expect(created.webhookEndpointCreate.secret).toMatch(/^whsec_/);
    expect(created.webhookEndpointCreate.userErrors).toEqual([]);
  });
});
