// The NOTIFY message that tells every server process about an order's change:
// what one sends, and what one accepts from another, possibly other, version.
import { describe, expect, it } from "vitest";
import {
  ORDER_UPDATED_CHANNEL,
  orderUpdatedNotification,
  parseOrderUpdatedMessage,
} from "../../src/domain/order-notifications.js";

const MESSAGE = {
  orderId: "0000de30-0005-4000-8000-000000000001",
  buyerId: "0000de30-0001-4000-8000-000000000001",
  eventId: "0000de30-0009-4000-8000-000000000001",
  orderStatus: "shipped",
} as const;

describe("order change notifications", () => {
  it("are sent on one channel and read back as sent", () => {
    const notification = orderUpdatedNotification(MESSAGE);
    expect(notification.channel).toBe(ORDER_UPDATED_CHANNEL);
    expect(parseOrderUpdatedMessage(notification.payload)).toEqual(MESSAGE);
  });

  it("carry identifiers only, never the order's fields", () => {
    expect(Object.keys(JSON.parse(orderUpdatedNotification(MESSAGE).payload)).sort()).toEqual([
      "buyerId",
      "eventId",
      "orderId",
      "orderStatus",
    ]);
  });

  it.each([
    ["not JSON", "order 1 shipped"],
    ["JSON that is not an object", "[1, 2]"],
    ["null", "null"],
    ["a missing id", JSON.stringify({ ...MESSAGE, eventId: undefined })],
    ["an id that is not text", JSON.stringify({ ...MESSAGE, buyerId: 7 })],
    ["a status this version does not know", JSON.stringify({ ...MESSAGE, orderStatus: "lost_at_sea" })],
  ])("ignore a payload with %s", (_what, payload) => {
    expect(parseOrderUpdatedMessage(payload)).toBeNull();
  });
});
