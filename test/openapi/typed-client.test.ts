// An integrator's view: a client typed from the OpenAPI document (openapi-fetch
// over the generated types) creates a supplier user and lists orders.
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "../generated/api-types.js";
import { contractFetch } from "../support/contract.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, PUBLIC_BASE_URL, type TestApp } from "../support/test-app.js";

describe("a client typed from the OpenAPI document", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let placed: string[];
  let client: ReturnType<typeof createClient<paths>>;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Typed client");
    placed = await seedOrders(harness.database, buyer, [
      { createdAt: new Date("2025-02-01T10:00:00.000Z"), orderStatus: "order_placed" },
      { createdAt: new Date("2025-02-03T10:00:00.000Z"), orderStatus: "order_placed" },
    ]);
    await seedOrders(harness.database, buyer, [
      { createdAt: new Date("2025-02-02T10:00:00.000Z"), orderStatus: "delivered" },
    ]);
    client = createClient<paths>({
      baseUrl: PUBLIC_BASE_URL,
      fetch: contractFetch(async (request) => harness.app.fetch(request)),
      headers: { "X-API-KEY": buyer.apiKey },
    });
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("creates a supplier user and gets it back typed", async () => {
    const { data, error, response } = await client.POST(
      "/api/public/buyer/v1/suppliers/{supplier_id}/users",
      {
        params: { path: { supplier_id: buyer.supplierId } },
        body: { first_name: "Grace", last_name: "Hopper", contact_email: "grace.hopper@example.com" },
      },
    );
    expect(error).toBeUndefined();
    expect(response.status).toBe(201);
    const user: { id: string; supplier_profile_id: string; first_name: string | null } | undefined = data;
    expect(user).toMatchObject({ first_name: "Grace", supplier_profile_id: buyer.supplierId });
  });

  it("gets a refusal as a typed problem", async () => {
    const { data, error, response } = await client.POST(
      "/api/public/buyer/v1/suppliers/{supplier_id}/users",
      {
        params: { path: { supplier_id: buyer.supplierId } },
        body: { first_name: "Grace", last_name: "Hopper", contact_email: "GRACE.HOPPER@example.com" },
      },
    );
    expect(data).toBeUndefined();
    expect(response.status).toBe(409);
    expect(error?.code).toBe("already_exists");
    expect(error?.request_id).toBe(response.headers.get("x-request-id"));
  });

  it("lists orders filtered by order_status[], newest first", async () => {
    const { data, error, response } = await client.GET("/api/public/buyer/v1/orders", {
      params: { query: { "order_status[]": ["order_placed"], limit: 10 } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.map((order) => order.id)).toEqual([placed[1], placed[0]]);
    expect(data?.every((order) => order.order_status === "order_placed")).toBe(true);
  });

  it("follows the Link header to the next page", async () => {
    const first = await client.GET("/api/public/buyer/v1/orders", { params: { query: { limit: 2 } } });
    expect(first.data).toHaveLength(2);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.response.headers.get("link") ?? "")?.[1];
    const cursor = next ? new URL(next).searchParams.get("cursor") : null;
    expect(cursor).toBeTruthy();
    const second = await client.GET("/api/public/buyer/v1/orders", {
      params: { query: { limit: 2, cursor: cursor ?? "" } },
    });
    expect(second.data?.map((order) => order.id)).toEqual([placed[0]]);
    expect(second.response.headers.get("link")).toBeNull();
  });
});
