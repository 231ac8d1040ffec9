// How change log entries become one event's change and its
// `previous_attributes`, given the entries and the rendered record: entries
// of one transaction about one record are one change, and earlier values are
// written as the record's REST body writes its fields.
import { describe, expect, it } from "vitest";
import type { ChangeLogEntry } from "../../src/db/change-log.js";
import { parseExactJson } from "../../src/domain/webhook-events.js";
import { groupChanges, previousAttributes } from "../../src/webhooks/materializer.js";

const BUYER = "00000000-0000-4000-8000-0000000000b1";
const ORDER = "00000000-0000-4000-8000-0000000000a1";
const CHANGED_AT = new Date("2025-05-01T10:00:00.000Z");

function entry(seq: number, fields: Partial<ChangeLogEntry> = {}): ChangeLogEntry {
  return {
    seq: BigInt(seq),
    buyerId: BUYER,
    recordType: "order",
    recordId: ORDER,
    change: "updated",
    previous: {},
    version: 7n,
    changedAt: CHANGED_AT,
    ...fields,
  };
}

/** `previous_attributes` as the event's JSON text writes it. */
const written = (previous: Record<string, unknown>, objectText: string) =>
  JSON.stringify(previousAttributes(previous, parseExactJson(objectText) as Record<string, unknown>));

describe("previous_attributes", () => {
  it("writes an earlier amount as REST writes amounts: every digit, no trailing zeros", () => {
    const object = '{"quantity":98765432109876.543219,"price_total":10340.5,"count":3}';
    expect(
      written({ quantity: "12345678901234.567891", price_total: "10340.500000", count: "2" }, object),
    ).toBe('{"quantity":12345678901234.567891,"price_total":10340.5,"count":2}');
  });

  it("writes an earlier time as the record's ISO date-time with milliseconds", () => {
    expect(written({ placed_at: "2025-01-01 08:30:00+00" }, '{"placed_at":"2025-02-01T00:00:00.000Z"}')).toBe(
      '{"placed_at":"2025-01-01T08:30:00.000Z"}',
    );
  });

  it("names a column by its REST field, and leaves out columns the record does not show", () => {
    expect(
      written(
        { supplier_id: "00000000-0000-4000-8000-0000000000c1", internal_note: "x", status: "draft" },
        '{"supplier_profile_id":"00000000-0000-4000-8000-0000000000c2","status":"placed"}',
      ),
    ).toBe('{"supplier_profile_id":"00000000-0000-4000-8000-0000000000c1","status":"draft"}');
  });

  it("keeps an earlier null as null, whatever the field's current type", () => {
    expect(
      written({ quantity: null, placed_at: null }, '{"quantity":4,"placed_at":"2025-02-01T00:00:00.000Z"}'),
    ).toBe('{"quantity":null,"placed_at":null}');
  });
});

describe("changes of a batch", () => {
  it("makes one update of a transaction's entries about one record, each field's value the earliest", () => {
    const changes = groupChanges([
      entry(12, { previous: { status: "placed", quantity: "5" } }),
      entry(11, { previous: { status: "draft" } }),
    ]);
    expect(changes).toEqual([
      {
        first: entry(11, { previous: { status: "draft" } }),
        change: "updated",
        previous: { status: "draft", quantity: "5" },
      },
    ]);
  });

  it("makes a creation of a record created and changed in one transaction", () => {
    const changes = groupChanges([
      entry(21, { change: "created", previous: null }),
      entry(22, { previous: { status: "draft" } }),
    ]);
    expect(changes.map(({ first, change }) => [first.seq, change])).toEqual([[21n, "created"]]);
  });

  it("keeps apart changes of other transactions, records, record types or buyers", () => {
    const changes = groupChanges([
      entry(1),
      entry(2, { version: 8n }),
      entry(3, { recordId: "00000000-0000-4000-8000-0000000000a2" }),
      entry(4, { recordType: "tagging" }),
      entry(5, { buyerId: "00000000-0000-4000-8000-0000000000b2" }),
    ]);
    expect(changes.map(({ first }) => first.seq)).toEqual([1n, 2n, 3n, 4n, 5n]);
  });
});
