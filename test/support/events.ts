// Events seeded straight into the table hold what the service would have
// rendered: `data.object` is the record's REST read, so that the events API
// answers what the OpenAPI document says an event of its type holds.
import type { App } from "../../src/app.js";
import type { JsonValue } from "../../src/contract/route.js";
import { callApi } from "./test-app.js";

export type OrderEventData = {
  object: JsonValue;
  previous_attributes?: { [field: string]: JsonValue };
};

/** The `data` of an `order.created` or `order.updated` event about the order, as the buyer reads it now. */
export async function orderEventData(
  app: App,
  key: string,
  orderId: string,
  type: "order.created" | "order.updated",
): Promise<OrderEventData> {
  const order = await callApi(app, "GET", `/orders/${orderId}`, { key });
  if (order.status !== 200) throw new Error(`GET /orders/${orderId} answered ${order.status}`);
  const object: JsonValue = JSON.parse(order.text);
  // An update's earlier values are those of the fields it changed; a seeded event changed none.
  return type === "order.updated" ? { object, previous_attributes: {} } : { object };
}
