// The events integrators subscribe to, and event data kept as JSON text
// (docs/reference/webhooks.md, "Events").
import { describe, expect, it } from "vitest";
import {
  endpointReceives,
  isJsonNumber,
  isWebhookEventType,
  MAX_EVENT_DATA_BYTES,
  omittedObjectData,
  parseExactJson,
} from "../../src/domain/webhook-events.js";

describe("subscriptions", () => {
  it("an endpoint receives the types it lists, and every type with *", () => {
    expect(endpointReceives(["order.created"], "order.created")).toBe(true);
    expect(endpointReceives(["order.created"], "order.updated")).toBe(false);
    expect(endpointReceives(["*"], "tagging.created")).toBe(true);
  });

  it("knows the event types, and nothing else", () => {
    expect(isWebhookEventType("buyer_product_approval.updated")).toBe(true);
    expect(isWebhookEventType("order.deleted")).toBe(false);
    expect(isWebhookEventType("*")).toBe(false);
  });
});

describe("event data as JSON text", () => {
  it("keeps every digit of an amount a double cannot hold", () => {
    const text = '{"amount":12345678901234567890.123456789,"quantity":3,"note":"x"}';
    const value = parseExactJson(text);
    expect(JSON.stringify(value)).toBe(text);
    const { amount, note } = value as Record<string, unknown>;
    expect(isJsonNumber(amount)).toBe(true);
    expect(isJsonNumber(note)).toBe(false);
    expect(isJsonNumber(1.5)).toBe(true);
  });

  it("an event too large to send names its record, its size and where to read it", () => {
    expect(JSON.parse(omittedObjectData({ id: "o-1", path: "/orders/o-1", sizeBytes: 300_000 }))).toEqual({
      object_omitted: {
        reason: "too_large",
        size_bytes: 300_000,
        max_bytes: MAX_EVENT_DATA_BYTES,
        id: "o-1",
        url: "/orders/o-1",
      },
    });
  });
});
