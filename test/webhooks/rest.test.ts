// The events feed, webhook endpoints and the single reads over REST: every
// response is checked against the OpenAPI document by callApi.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectProblem, listBody } from "../rest/helpers.js";
import { orderEventData } from "../support/events.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";

describe("events and webhook endpoints over REST", { timeout: 60_000 }, () => {
  let test: TestApp;
  let buyer: SeededBuyer;
  let other: SeededBuyer;
  let orderId: string;

  beforeAll(async () => {
    test = await createTestApp();
    buyer = await seedBuyer(test.database, "Rest Hooks");
    other = await seedBuyer(test.database, "Rest Other");
    [orderId = ""] = await seedOrders(test.database, buyer, [
      { createdAt: new Date("2025-02-01T00:00:00Z") },
    ]);
  });
  afterAll(() => test.close());

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
