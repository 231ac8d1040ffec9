// The client package against a live server on a socket: every operation by
// its resource method, typed; problems as BuyerApiError; lists followed
// through `Link`; keys on every POST; If-Match; the ETag cache; the events
// feed from a checkpoint; and deliveries verified as a receiver would.
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { OPERATIONS } from "../../client/src/generated/operations.js";
import {
  BuyerApi,
  BuyerApiError,
  type ErrorCode,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from "../../client/src/index.js";
import { createApp } from "../../src/app.js";
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from "../../src/config.js";
import { createLogger } from "../../src/logger.js";
import type { WebhookWorker } from "../../src/webhooks/worker.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { testConfig } from "../support/test-app.js";
import { startWebhookReceiver } from "../support/webhook-receiver.js";
import { countingFetch, type LiveServer, startLiveServer, startLiveWorker } from "./live-server.js";

const webhooks: WebhookConfig = {
  ...DEFAULT_WEBHOOK_CONFIG,
  allowHttp: true,
  allowPrivateNetworks: true,
  pollIntervalMs: 50,
};

describe("the client package", { timeout: 60_000 }, () => {
  let live: LiveServer;
  let buyer: SeededBuyer;
  let orders: string[];
  let worker: WebhookWorker;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
  const wire = countingFetch();
  let api: BuyerApi;

  beforeAll(async () => {
    live = await startLiveServer({ webhooks });
    buyer = await seedBuyer(live.database, "Client Package");
    orders = await seedOrders(
      live.database,
      buyer,
      Array.from({ length: 7 }, (_, day) => ({
        createdAt: new Date(Date.UTC(2025, 1, day + 1, 10)),
        orderStatus: "order_placed" as const,
      })),
    );
    receiver = await startWebhookReceiver();
    worker = await startLiveWorker(live, webhooks);
    api = new BuyerApi({ baseUrl: live.origin, apiKey: buyer.apiKey, fetch: wire.fetch });
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await live?.close();
  });

  it("reaches every operation of the document through a typed method", async () => {
    const reached = new Set<string>();
    const mark = (operation: keyof typeof OPERATIONS) => reached.add(operation);

    const user = await api.supplierUsers.create({
      supplier_id: buyer.supplierId,
      body: { first_name: "Ada", last_name: "Lovelace", contact_email: "ada@example.com" },
    });
    mark("createSupplierUser");
    expect(user.supplier_profile_id).toBe(buyer.supplierId);

    const product = await api.buyerProducts.create({
      body: { raw_material_name: "Glycerin", measurement_unit: "kg", product_type: "Raw Material" },
    });
    mark("createBuyerProduct");
    expect((await api.buyerProducts.get({ id: product.id })).raw_material_name).toBe("Glycerin");
    mark("getBuyerProduct");

    const tagging = await api.taggings.create({
      body: { taggable_id: product.id, tag_ids: [buyer.tagIds[0] ?? ""] },
    });
    mark("attachTags");
    expect(tagging.added_tag_ids).toEqual([buyer.tagIds[0]]);

    const listed: string[] = [];
    for await (const order of api.orders.list({ order_status: ["order_placed"] })) listed.push(order.id);
    mark("listOrders");
    expect(listed).toEqual([...orders].reverse());
    expect((await api.orders.get({ id: orders[0] ?? "" })).order_status).toBe("order_placed");
    mark("getOrder");
    const confirmed = await api.orders.update({
      id: orders[0] ?? "",
      body: { order_status: "order_confirmed" },
    });
    mark("updateOrder");
    expect(confirmed.order_status).toBe("order_confirmed");

    const approvals = [];
    for await (const approval of api.buyerProductApprovals.list()) approvals.push(approval);
    mark("listBuyerProductApprovals");
    expect(approvals.map((approval) => approval.id)).toContain(buyer.approvalId);
    expect((await api.buyerProductApprovals.get({ id: buyer.approvalId })).id).toBe(buyer.approvalId);
    mark("getBuyerProductApproval");

    const endpoint = await api.webhookEndpoints.create({
      body: { url: receiver.url, enabled_events: ["*"] },
    });
    mark("createWebhookEndpoint");
    expect(endpoint.secret).toMatch(/^whsec_/);
    const endpoints = [];
    for await (const each of api.webhookEndpoints.list()) endpoints.push(each.id);
    mark("listWebhookEndpoints");
    expect(endpoints).toEqual([endpoint.id]);
    expect((await api.webhookEndpoints.get({ id: endpoint.id })).url).toBe(receiver.url);
    mark("getWebhookEndpoint");
    const described = await api.webhookEndpoints.update({ id: endpoint.id, body: { description: "ERP" } });
    mark("updateWebhookEndpoint");
    expect(described.description).toBe("ERP");
    const rotated = await api.webhookEndpoints.rotateSecret({ id: endpoint.id });
    mark("rotateWebhookEndpointSecret");
    expect(rotated.secret).not.toBe(endpoint.secret);

    // The changes above become events once the worker has rendered them.
    const event = await vi.waitFor(
      async () => {
        for await (const each of api.events.list({ type: ["order.updated"] })) return each;
        throw new Error("no event yet");
      },
      { timeout: 10_000, interval: 50 },
    );
    mark("listEvents");
    expect(event.type).toBe("order.updated");
    expect((await api.events.get({ id: event.id })).id).toBe(event.id);
    mark("getEvent");
    await api.events.redeliver({ id: event.id, body: { endpoint_id: endpoint.id } });
    mark("redeliverEvent");
    const deliveries = await vi.waitFor(
      async () => {
        const found = [];
        for await (const delivery of api.webhookDeliveries.list({ id: endpoint.id })) found.push(delivery);
        if (found.length === 0) throw new Error("no delivery yet");
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    mark("listWebhookDeliveries");
    expect(deliveries.length).toBeGreaterThan(0);
    await api.webhookEndpoints.delete({ id: endpoint.id });
    mark("deleteWebhookEndpoint");

    expect([...reached].sort()).toEqual(Object.keys(OPERATIONS).sort());
  });

  it("throws a refusal as BuyerApiError with the operation's code, the request id and the field errors", async () => {
    const missing = await api.orders.get({ id: crypto.randomUUID() }).catch((error: unknown) => error);
    expect(BuyerApiError.is(missing, "getOrder")).toBe(true);
    if (!BuyerApiError.is(missing, "getOrder")) return;
    const code: ErrorCode<"getOrder"> = missing.code;
    // @ts-expect-error the document lists the codes of each operation: a read never answers already_exists
    const impossible: ErrorCode<"getOrder"> = "already_exists";
    void impossible;
    expect({ status: missing.status, code }).toEqual({ status: 404, code: "not_found" });
    expect(missing.requestId).toMatch(/\S/);

    const invalid = await api.supplierUsers
      .create({
        supplier_id: buyer.supplierId,
        body: { first_name: "A", last_name: "B", contact_email: "nope" },
      })
      .catch((error: unknown) => error);
    expect(BuyerApiError.is(invalid, "createSupplierUser") && invalid.code).toBe("validation_failed");
    expect(invalid instanceof BuyerApiError && invalid.errors.map((error) => error.field)).toEqual([
      "contact_email",
    ]);

    const backwards = await api.orders
      .update({ id: orders[1] ?? "", body: { order_status: "quote_selected" } })
      .catch((error: unknown) => error);
    expect(BuyerApiError.is(backwards, "updateOrder") && backwards.code).toBe("invalid_transition");
    expect(backwards instanceof BuyerApiError && backwards.problem.allowed_statuses).toContain("delivered");
  });

  it("follows Link page by page with the page size, and stops at the bound", async () => {
    const counted = countingFetch();
    const paged = new BuyerApi({ baseUrl: live.origin, apiKey: buyer.apiKey, fetch: counted.fetch });
    const all: string[] = [];
    for await (const order of paged.orders.list({ pageSize: 2 })) all.push(order.id);
    expect(all).toEqual([...orders].reverse());
    expect(counted.statuses).toEqual([200, 200, 200, 200]);
    expect(new URL(counted.requests[1]?.url ?? "").searchParams.get("limit")).toBe("2");

    counted.statuses.length = 0;
    const firstThree: string[] = [];
    for await (const order of paged.orders.list({ pageSize: 2, max: 3 })) firstThree.push(order.id);
    expect(firstThree).toEqual(all.slice(0, 3));
    expect(counted.statuses).toHaveLength(2);
  });

  it("sends an Idempotency-Key with every POST, and the caller's own when given, so a repeat creates nothing", async () => {
    wire.requests.length = 0;
    const body = { first_name: "Grace", last_name: "Hopper", contact_email: "grace@example.com" };
    const first = await api.supplierUsers.create(
      { supplier_id: buyer.supplierId, body },
      { idempotencyKey: "grace-1" },
    );
    const again = await api.supplierUsers.create(
      { supplier_id: buyer.supplierId, body },
      { idempotencyKey: "grace-1" },
    );
    expect(again.id).toBe(first.id);
    expect(wire.requests.map((request) => request.headers.get("idempotency-key"))).toEqual([
      "grace-1",
      "grace-1",
    ]);
    await api.taggings.create({ body: { taggable_id: orders[2] ?? "", tag_ids: [buyer.tagIds[1] ?? ""] } });
    expect(wire.requests[2]?.headers.get("idempotency-key")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("updates with If-Match only the order as read: a stale ETag is 412 and changes nothing", async () => {
    const id = orders[3] ?? "";
    const read = await api.request("getOrder", { id });
    expect(read.etag).toMatch(/^"/);
    const updated = await api.request(
      "updateOrder",
      { id, body: { purchase_order_reference: "PO-1" } },
      { ifMatch: read.etag ?? "" },
    );
    expect(updated.data.purchase_order_reference).toBe("PO-1");
    const stale = await api.orders
      .update({ id, body: { purchase_order_reference: "PO-2" } }, { ifMatch: read.etag ?? "" })
      .catch((error: unknown) => error);
    expect(BuyerApiError.is(stale, "updateOrder") && stale.code).toBe("precondition_failed");
    expect((await api.orders.get({ id })).purchase_order_reference).toBe("PO-1");
  });

  it("polls orders with the ETag cache: every repeat while nothing changes is a 304, a change is a 200", async () => {
    const counted = countingFetch();
    const poller = new BuyerApi({
      baseUrl: live.origin,
      apiKey: buyer.apiKey,
      fetch: counted.fetch,
      cache: true,
    });
    const poll = async () => {
      const ids: string[] = [];
      for await (const order of poller.orders.list({ pageSize: 5 })) ids.push(order.id);
      return ids;
    };
    const first = await poll();
    expect(counted.statuses).toEqual([200, 200]);
    // One poll a second for a minute: sixty repeats, counted, not timed.
    for (let repeat = 0; repeat < 60; repeat += 1) expect(await poll()).toEqual(first);
    expect(counted.statuses.slice(2)).toEqual(Array(120).fill(304));
    expect(counted.requests.at(-1)?.headers.get("if-none-match")).toMatch(/^"/);

    await api.orders.update({ id: orders[4] ?? "", body: { supplier_order_reference: "S-1" } });
    counted.statuses.length = 0;
    await poll();
    expect(counted.statuses).toEqual([200, 200]);
  });

  it("does not wait out a Retry-After longer than it may: the 429 is thrown with its wait", async () => {
    const limited = createApp({
      config: testConfig({ rateLimitPerMinute: 1 }),
      database: live.database,
      logger: createLogger("silent"),
    });
    const statuses: number[] = [];
    const client = new BuyerApi({
      baseUrl: live.origin,
      apiKey: (await seedBuyer(live.database, "Limited")).apiKey,
      fetch: async (input, init) => {
        const response = await limited.fetch(new Request(input, init));
        statuses.push(response.status);
        return response;
      },
      // Below the shortest Retry-After (1 s), wherever in its window the limit falls.
      retry: { maxDelayMs: 500 },
    });
    await expect(client.orders.get({ id: crypto.randomUUID() })).rejects.toThrow(/not_found/);
    const limit = await client.orders.get({ id: crypto.randomUUID() }).catch((error: unknown) => error);
    expect(BuyerApiError.is(limit, "getOrder") && limit.code).toBe("rate_limited");
    expect(limit instanceof BuyerApiError && limit.retryAfter).toBeGreaterThanOrEqual(1);
    expect(statuses).toEqual([404, 429]);
  });

  it("resumes the events feed after the last event id the caller stored, oldest first", async () => {
    const eventOf = (seen: WebhookEvent[], orderId: string) =>
      seen.find(
        (event) =>
          event.type === "order.updated" && "object" in event.data && event.data.object.id === orderId,
      );
    await api.orders.update({ id: orders[6] ?? "", body: { purchase_order_reference: "PO-FEED" } });
    const checkpoint = await vi.waitFor(
      async () => {
        const seen: WebhookEvent[] = [];
        for await (const event of api.events.feed()) seen.push(event);
        const times = seen.map((event) => event.created_at);
        expect(times).toEqual([...times].sort());
        const handled = eventOf(seen, orders[6] ?? "");
        if (!handled) throw new Error("the update is not an event yet");
        return handled;
      },
      { timeout: 10_000, interval: 50 },
    );
    await api.orders.update({ id: orders[5] ?? "", body: { order_status: "shipped" } });
    const after = await vi.waitFor(
      async () => {
        const seen: WebhookEvent[] = [];
        for await (const event of api.events.feed({ after: checkpoint.id, pageSize: 1 })) seen.push(event);
        if (!eventOf(seen, orders[5] ?? "")) throw new Error("the update is not an event yet");
        return seen;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(after.map((event) => event.id)).not.toContain(checkpoint.id);
    for (const event of after) expect(event.created_at >= checkpoint.created_at).toBe(true);
    const shipped = after.at(-1);
    if (shipped?.type !== "order.updated" || !("object" in shipped.data))
      throw new Error("not an order update");
    expect(shipped.data.object.id).toBe(orders[5]);
    expect(shipped.data.previous_attributes.order_status).toBe("order_placed");
  });
});

describe("verifyWebhook", { timeout: 60_000 }, () => {
  let live: LiveServer;
  let worker: WebhookWorker;
  let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

  beforeAll(async () => {
    live = await startLiveServer({ webhooks });
    receiver = await startWebhookReceiver();
    worker = await startLiveWorker(live, webhooks);
  });
  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await live?.close();
  });

  it("verifies the server's real deliveries and returns the event, typed by its type", async () => {
    const buyer = await seedBuyer(live.database, "Receiver");
    const [orderId = ""] = await seedOrders(live.database, buyer, [
      { createdAt: new Date(), orderStatus: "order_placed" },
    ]);
    const api = new BuyerApi({ baseUrl: live.origin, apiKey: buyer.apiKey });
    const { secret } = await api.webhookEndpoints.create({
      body: { url: receiver.url, enabled_events: ["*"] },
    });
    receiver.setSecret(secret);
    await api.orders.update({ id: orderId, body: { order_status: "order_confirmed" } });
    await api.supplierUsers.create({
      supplier_id: buyer.supplierId,
      body: { first_name: "Ada", last_name: "Lovelace", contact_email: "ada@example.com" },
    });
    await vi.waitFor(() => expect(receiver.received.length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });

    const types: string[] = [];
    for (const delivery of receiver.received) {
      expect(delivery.verified).toBe(true);
      const headers = delivery.headers as Record<string, string>;
      const event = await verifyWebhook(delivery.text, headers, secret);
      expect(event).toEqual(delivery.body);
      if (!("object" in event.data)) throw new Error("an event too large to carry its record");
      switch (event.type) {
        case "order.updated":
          expect(event.data.object.order_status).toBe("order_confirmed");
          break;
        case "supplier_user.created":
          expect(event.data.object.contact_email).toBe("ada@example.com");
          break;
      }
      types.push(event.type);
      // Headers of fetch's kind, and raw bytes, verify the same.
      await verifyWebhook(new TextEncoder().encode(delivery.text), new Headers(headers), secret);
      await expect(verifyWebhook(`${delivery.text} `, headers, secret)).rejects.toThrow(
        WebhookVerificationError,
      );
      await expect(verifyWebhook(delivery.text, headers, `whsec_${btoa("another secret")}`)).rejects.toThrow(
        WebhookVerificationError,
      );
      await expect(
        verifyWebhook(delivery.text, headers, secret, { now: Number(headers["webhook-timestamp"]) + 301 }),
      ).rejects.toThrow(/tolerance/);
    }
    expect(types.sort()).toEqual(["order.updated", "supplier_user.created"]);
  });

  it("verifies what the standardwebhooks library signs, with either of two secrets during a rotation", async () => {
    const body = JSON.stringify({
      id: "msg_1",
      type: "tagging.created",
      created_at: "2025-03-05T14:02:44.907Z",
      data: { object: { taggable_type: "Order", taggable_id: "x", added_tag_ids: [], tags: [] } },
    });
    const old = `whsec_${Buffer.alloc(24, 1).toString("base64")}`;
    const current = `whsec_${Buffer.alloc(24, 2).toString("base64")}`;
    const at = new Date();
    const signature = new Webhook(current).sign("msg_1", at, body);
    const headers = {
      "webhook-id": "msg_1",
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": `${new Webhook(old).sign("msg_1", at, body)} ${signature}`,
    };
    const event = await verifyWebhook(body, headers, [current]);
    expect(
      event.type === "tagging.created" && "object" in event.data && event.data.object.taggable_type,
    ).toBe("Order");
    await verifyWebhook(body, headers, [old]);
    await expect(verifyWebhook(body, { ...headers, "webhook-id": "msg_2" }, current)).rejects.toThrow(
      WebhookVerificationError,
    );
    await expect(verifyWebhook(body, { ...headers, "webhook-signature": "" }, current)).rejects.toThrow(
      /missing/,
    );
  });
});
