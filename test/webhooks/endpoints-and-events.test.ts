// Webhook endpoints and the events feed through the API, on one app: endpoints
// as front-end teams manage them over GraphQL; the events feed, endpoints and
// the single reads over REST (every response checked against the OpenAPI
// document by callApi); and a URL no endpoint may hold, refused either way.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql, graphqlData } from "../graphql/helpers.js";
import { expectProblem, listBody } from "../rest/helpers.js";
import { orderEventData } from "../support/events.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";

// Each part seeds buyers of its own, so that none sees another's endpoints or events.
let test: TestApp;
beforeAll(async () => {
  test = await createTestApp();
}, 120_000);
afterAll(() => test?.close());

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
  let buyer: SeededBuyer;
  let other: SeededBuyer;

  beforeAll(async () => {
    buyer = await seedBuyer(test.database, "Hooks");
    other = await seedBuyer(test.database, "Other");
  });

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

describe("events and webhook endpoints over REST", { timeout: 60_000 }, () => {
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let orderId: string;

  beforeAll(async () => {
    buyer = await seedBuyer(test.database, "Rest Hooks");
    other = await seedBuyer(test.database, "Rest Other");
    [orderId = ""] = await seedOrders(test.database, buyer, [
      { createdAt: new Date("2025-02-01T00:00:00Z") },
    ]);
  });

  const api = (method: string, path: string, body?: unknown, key = buyer.apiKey) =>
    callApi(test.app, method, path, { key, body });

  async function createEndpoint(key = buyer.apiKey) {
    const created = await api(
      "POST",
      "/webhook_endpoints",
      { url: "https://93.184.215.14/hooks", enabled_events: ["order.updated"], description: "ERP" },
      key,
    );
    expect(created.status).toBe(201);
    return created.body as Record<string, unknown> & { id: string; secret: string };
  }

  describe("single reads", () => {
    it("GET /orders/{id}, /buyer_products/{id}, /buyer_product_approvals/{id} answer the buyer's record, 404 otherwise", async () => {
      const order = await api("GET", `/orders/${orderId}`);
      expect(order.status).toBe(200);
      expect(listBody(await api("GET", "/orders")).find((item) => item.id === orderId)).toEqual(order.body);
      expect((await api("GET", `/buyer_products/${buyer.buyerProductId}`)).body).toMatchObject({
        id: buyer.buyerProductId,
      });
      const approval = await api("GET", `/buyer_product_approvals/${buyer.approvalId}`);
      expect(listBody(await api("GET", "/buyer_product_approvals"))).toContainEqual(approval.body);

      expectProblem(await api("GET", `/orders/${orderId}`, undefined, other.apiKey), 404, "not_found");
      expectProblem(await api("GET", `/buyer_products/${randomUUID()}`), 404, "not_found");
      expectProblem(await api("GET", "/buyer_product_approvals/not-a-uuid"), 404, "not_found");
    });
  });

  describe("webhook endpoints", () => {
    it("creates one with a secret shown once, then lists, reads, changes, rotates and deletes it", async () => {
      const created = await createEndpoint();
      expect(created).toMatchObject({
        status: "enabled",
        enabled_events: ["order.updated"],
        description: "ERP",
      });
      expect(created.secret).toMatch(/^whsec_/);

      const read = await api("GET", `/webhook_endpoints/${created.id}`);
      expect(read.body).not.toHaveProperty("secret");
      expect(listBody(await api("GET", "/webhook_endpoints")).map((item) => item.id)).toContain(created.id);

      const patched = await api("PATCH", `/webhook_endpoints/${created.id}`, {
        status: "disabled",
        enabled_events: ["*"],
        description: null,
      });
      expect(patched.body).toMatchObject({
        status: "disabled",
        disabled_reason: "requested",
        enabled_events: ["*"],
        description: null,
      });

      const rotated = await api("POST", `/webhook_endpoints/${created.id}/rotate_secret`);
      expect(rotated.status).toBe(200);
      expect((rotated.body as { secret: string }).secret).not.toBe(created.secret);

      expect(listBody(await api("GET", `/webhook_endpoints/${created.id}/deliveries`))).toEqual([]);

      const deleted = await api("DELETE", `/webhook_endpoints/${created.id}`);
      expect(deleted.status).toBe(204);
      expectProblem(await api("GET", `/webhook_endpoints/${created.id}`), 404, "not_found");
    });

    it("refuses an invalid URL, a private address and unknown event types with 422 naming each field", async () => {
      expectProblem(
        await api("POST", "/webhook_endpoints", { url: "not a url", enabled_events: ["order.updated"] }),
        422,
        "validation_failed",
        [["url", "invalid"]],
      );
      expectProblem(
        await api("POST", "/webhook_endpoints", {
          url: "https://169.254.169.254/latest",
          enabled_events: ["order.updated", "order.shipped"],
        }),
        422,
        "validation_failed",
        [
          ["url", "invalid"],
          ["enabled_events[1]", "invalid"],
        ],
      );
      expectProblem(
        await api("POST", "/webhook_endpoints", { url: "http://93.184.215.14/", enabled_events: ["*"] }),
        422,
        "validation_failed",
        [["url", "invalid"]],
      );
      expectProblem(await api("POST", "/webhook_endpoints", {}), 422, "validation_failed", [
        ["url", "required"],
        ["enabled_events", "required"],
      ]);
      const listed = listBody(await api("GET", "/webhook_endpoints"));
      expect(listed.map((item) => item.url)).not.toContain("https://169.254.169.254/latest");
    });

    it("answers 404 for another buyer's endpoint, on every path", async () => {
      const { id } = await createEndpoint(other.apiKey);
      expectProblem(await api("GET", `/webhook_endpoints/${id}`), 404, "not_found");
      expectProblem(await api("PATCH", `/webhook_endpoints/${id}`, { status: "disabled" }), 404, "not_found");
      expectProblem(await api("DELETE", `/webhook_endpoints/${id}`), 404, "not_found");
      expectProblem(await api("POST", `/webhook_endpoints/${id}/rotate_secret`), 404, "not_found");
      expectProblem(await api("GET", `/webhook_endpoints/${id}/deliveries`), 404, "not_found");
      expect((await api("GET", `/webhook_endpoints/${id}`, undefined, other.apiKey)).status).toBe(200);
    });
  });

  describe("events", () => {
    async function seedEvent(buyerId: string, type: "order.created" | "order.updated", createdAt: Date) {
      const id = randomUUID();
      const data = JSON.stringify(await orderEventData(test.app, buyer.apiKey, orderId, type));
      await test.database.prisma.webhookEvent.create({ data: { id, buyerId, type, createdAt, data } });
      return id;
    }

    it("lists newest first with limit, cursor and Link, filtered by type[] and created_at", async () => {
      const older = await seedEvent(buyer.buyerId, "order.created", new Date("2025-03-01T10:00:00Z"));
      const newer = await seedEvent(buyer.buyerId, "order.updated", new Date("2025-03-02T10:00:00Z"));
      const newest = await seedEvent(buyer.buyerId, "order.updated", new Date("2025-03-03T10:00:00Z"));
      await seedEvent(other.buyerId, "order.updated", new Date("2025-03-02T12:00:00Z"));

      const window = "created_at_from=2025-03-01&created_at_to=2025-03-03";
      const first = await api("GET", `/events?${window}&limit=2`);
      expect(listBody(first).map((event) => event.id)).toEqual([newest, newer]);
      const next = /<([^>]+)>; rel="next"/.exec(first.headers.get("link") ?? "")?.[1] ?? "";
      expect(listBody(await api("GET", next)).map((event) => event.id)).toEqual([older]);

      const updates = await api("GET", `/events?${window}&type[]=order.updated`);
      expect(listBody(updates).map((event) => event.id)).toEqual([newest, newer]);
      expect(listBody(updates)[0]).toEqual({
        id: newest,
        type: "order.updated",
        created_at: "2025-03-03T10:00:00.000Z",
        data: { object: (await api("GET", `/orders/${orderId}`)).body, previous_attributes: {} },
      });
      expectProblem(await api("GET", "/events?type[]=order.shipped"), 422, "validation_failed", [
        ["type[0]", "invalid"],
      ]);
    });

    it("reads one, 404 for an unknown or another buyer's event", async () => {
      const id = await seedEvent(buyer.buyerId, "order.updated", new Date());
      expect((await api("GET", `/events/${id}`)).body).toMatchObject({ id, type: "order.updated" });
      expectProblem(await api("GET", `/events/${id}`, undefined, other.apiKey), 404, "not_found");
      expectProblem(await api("GET", `/events/${randomUUID()}`), 404, "not_found");
      expectProblem(await api("POST", `/events/${id}/redeliver`, {}, other.apiKey), 404, "not_found");
    });

    it("redelivers to an endpoint (202, a pending delivery), and refuses a disabled one with 409 endpoint_disabled", async () => {
      const id = await seedEvent(buyer.buyerId, "order.updated", new Date());
      const endpoint = await createEndpoint();
      const queued = await api("POST", `/events/${id}/redeliver`, { endpoint_id: endpoint.id });
      expect(queued.status).toBe(202);
      expect(queued.body).toMatchObject({
        deliveries: [
          { endpoint_id: endpoint.id, event_id: id, status: "pending", attempt_count: 0, attempts: [] },
        ],
      });
      const deliveries = listBody(await api("GET", `/webhook_endpoints/${endpoint.id}/deliveries`));
      expect(deliveries.map((delivery) => delivery.event_id)).toEqual([id]);

      await api("PATCH", `/webhook_endpoints/${endpoint.id}`, { status: "disabled" });
      expectProblem(
        await api("POST", `/events/${id}/redeliver`, { endpoint_id: endpoint.id }),
        409,
        "endpoint_disabled",
      );
      const foreignEndpoint = await createEndpoint(other.apiKey);
      expectProblem(
        await api("POST", `/events/${id}/redeliver`, { endpoint_id: foreignEndpoint.id }),
        404,
        "not_found",
      );
    });
  });
});

describe("a webhook URL with a NUL character", { timeout: 60_000 }, () => {
  let buyer: SeededBuyer;
  beforeAll(async () => {
    buyer = await seedBuyer(test.database, "NUL sender");
  });

  const withNul = "https://93.184.215.14/hooks\u0000x";

  it("is 422 naming url over REST, on create and on change, and changes nothing", async () => {
    const api = (method: string, path: string, body: unknown) =>
      callApi(test.app, method, path, { key: buyer.apiKey, body });
    expectProblem(
      await api("POST", "/webhook_endpoints", { url: withNul, enabled_events: ["*"] }),
      422,
      "validation_failed",
      [["url", "invalid"]],
    );
    const created = await api("POST", "/webhook_endpoints", {
      url: "https://93.184.215.14/hooks",
      enabled_events: ["*"],
    });
    const { id } = created.body as { id: string };
    expectProblem(
      await api("PATCH", `/webhook_endpoints/${id}`, { url: withNul }),
      422,
      "validation_failed",
      [["url", "invalid"]],
    );
    const endpoints = await test.database.prisma.webhookEndpoint.findMany({
      where: { buyerId: buyer.buyerId },
    });
    expect(endpoints.map((endpoint) => endpoint.url)).toEqual(["https://93.184.215.14/hooks"]);
  });

  it("is VALIDATION_FAILED naming input.url over GraphQL", async () => {
    const refused = await graphql(
      test.app,
      "mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { secret } }",
      { key: buyer.apiKey, variables: { input: { url: withNul, enabledEvents: ["*"] } } },
    );
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fieldErrors: [{ path: ["input", "url"] }],
    });
  });
});
