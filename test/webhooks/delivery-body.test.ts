// The body a delivery carries: the event as `GET /events/{id}` answers it,
// its stored data placed as it is, so that the object keeps every byte the
// REST read answered when the event was rendered.
import { describe, expect, it } from "vitest";
import { eventBody } from "../../src/webhooks/delivery-attempt.js";

describe("a delivery's body", () => {
  const event = {
    id: "00000000-0000-4000-8000-0000000000e1",
    type: "order.updated",
    createdAt: new Date("2025-03-01T10:20:30.456Z"),
    data: '{"object":{"id":"o-1","quantity":12345678901234.567891,"price":10340.500000},"previous_attributes":{}}',
  };

  it("holds id, type, created_at and data, in that order", () => {
    expect(Object.keys(JSON.parse(eventBody(event)))).toEqual(["id", "type", "created_at", "data"]);
    expect(JSON.parse(eventBody(event))).toMatchObject({
      id: event.id,
      type: "order.updated",
      created_at: "2025-03-01T10:20:30.456Z",
    });
  });

  it("carries the stored data text unchanged: every digit and trailing zero of its amounts", () => {
    expect(eventBody(event)).toBe(
      `{"id":"${event.id}","type":"order.updated","created_at":"2025-03-01T10:20:30.456Z","data":${event.data}}`,
    );
  });

  it("is valid JSON for data with quotes and non-ASCII text", () => {
    const data = '{"object":{"note":"Müller \\"A\\"\\n✓"}}';
    expect(JSON.parse(eventBody({ ...event, data })).data).toEqual({ object: { note: 'Müller "A"\n✓' } });
  });
});
