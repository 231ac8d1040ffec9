// Records for every route of the table, so that a test can call each one with
// ids that name something: the value of each path parameter, the Node type
// whose global ID names the same record (when it has one), and a body the
// operation accepts.
import { randomUUID } from "node:crypto";
import type { RestRoute } from "../../src/contract/route.js";
import type { NodeTypeName } from "../../src/schema/global-ids.js";
import { orderEventData } from "../support/events.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, type TestApp } from "../support/test-app.js";

/** What a path parameter of a route names. */
export interface PathRecord {
  /** Called for each request: a DELETE needs a record of its own every time. */
  id: () => Promise<string>;
  /** The record's Node type when it has a global ID. */
  nodeType: NodeTypeName | null;
}

export interface RouteFixtures {
  buyer: SeededBuyer;
  /** Another organisation, whose records the buyer cannot see. */
  other: SeededBuyer;
  orderId: string;
  eventId: string;
  endpointId: string;
  /** The record behind each path parameter, by operationId and parameter name. */
  pathRecord(route: RestRoute, name: string): PathRecord;
  /** A body the operation accepts as it is; each call a new one (emails are unique per supplier). */
  validBody(route: RestRoute): Record<string, unknown> | undefined;
}

export const PUBLIC_WEBHOOK_URL = "https://93.184.215.14/hooks";

export async function seedRouteFixtures(harness: TestApp): Promise<RouteFixtures> {
  const buyer = await seedBuyer(harness.database, "Route Fixtures");
  const other = await seedBuyer(harness.database, "Route Fixtures Other");
  const [orderId = ""] = await seedOrders(harness.database, buyer, [{ createdAt: new Date("2025-02-01") }]);
  const eventId = randomUUID();
  await harness.database.prisma.webhookEvent.create({
    data: {
      id: eventId,
      buyerId: buyer.buyerId,
      type: "order.updated",
      data: JSON.stringify(await orderEventData(harness.app, buyer.apiKey, orderId, "order.updated")),
    },
  });
  const createEndpoint = async () => {
    const created = await callApi(harness.app, "POST", "/webhook_endpoints", {
      key: buyer.apiKey,
      body: { url: PUBLIC_WEBHOOK_URL, enabled_events: ["order.updated"] },
    });
    if (created.status !== 201) throw new Error(`creating a webhook endpoint answered ${created.status}`);
    return (created.body as { id: string }).id;
  };
  const endpointId = await createEndpoint();
  const fixed = (id: string, nodeType: NodeTypeName | null): PathRecord => ({
    id: async () => id,
    nodeType,
  });
  const records: Record<string, Record<string, PathRecord>> = {
    createSupplierUser: { supplier_id: fixed(buyer.supplierId, "Supplier") },
    updateOrder: { id: fixed(orderId, "Order") },
    getOrder: { id: fixed(orderId, "Order") },
    getBuyerProduct: { id: fixed(buyer.buyerProductId, "BuyerProduct") },
    getBuyerProductApproval: { id: fixed(buyer.approvalId, "BuyerProductApproval") },
    getEvent: { id: fixed(eventId, null) },
    redeliverEvent: { id: fixed(eventId, null) },
    getWebhookEndpoint: { id: fixed(endpointId, null) },
    updateWebhookEndpoint: { id: fixed(endpointId, null) },
    deleteWebhookEndpoint: { id: { id: createEndpoint, nodeType: null } },
    rotateWebhookEndpointSecret: { id: fixed(endpointId, null) },
    listWebhookDeliveries: { id: fixed(endpointId, null) },
  };
  let emails = 0;
  const bodies: Record<string, () => Record<string, unknown>> = {
    createSupplierUser: () => ({
      first_name: "Grace",
      last_name: "Hopper",
      contact_email: `grace.${++emails}@example.com`,
    }),
    attachTags: () => ({ taggable_id: buyer.buyerProductId, tag_ids: [buyer.tagIds[0]] }),
    createBuyerProduct: () => ({
      raw_material_name: "Zinc stearate",
      measurement_unit: "kg",
      product_type: "Raw Material",
      resource_values: [{ provider: "erp", value: "ZS-1" }],
    }),
    updateOrder: () => ({ resource_values: [{ provider: "erp", value: "PO-1" }] }),
    redeliverEvent: () => ({ endpoint_id: endpointId }),
    createWebhookEndpoint: () => ({ url: PUBLIC_WEBHOOK_URL, enabled_events: ["order.updated"] }),
    updateWebhookEndpoint: () => ({ description: "ERP sync", enabled_events: ["order.updated"] }),
  };
  return {
    buyer,
    other,
    orderId,
    eventId,
    endpointId,
    pathRecord(route, name) {
      const record = records[route.operationId]?.[name];
      if (!record) throw new Error(`route-fixtures: no record for ${route.operationId} {${name}}`);
      return record;
    },
    validBody(route) {
      if (!route.body) return undefined;
      const body = bodies[route.operationId];
      if (!body) throw new Error(`route-fixtures: no valid body for ${route.operationId}`);
      return body();
    },
  };
}

/** The route's path with its parameters filled in by `fill`. */
export async function pathOf(route: RestRoute, fill: (name: string) => Promise<string>): Promise<string> {
  let path = route.path;
  for (const [, name = ""] of route.path.matchAll(/\{(\w+)\}/g))
    path = path.replace(`{${name}}`, encodeURIComponent(await fill(name)));
  return path;
}
