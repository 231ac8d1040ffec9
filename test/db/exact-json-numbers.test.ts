// The JSON Prisma reads of a joined relation (one JSON value per parent row):
// an amount a double would round is handed on as the string of its digits, so
// that every stored digit reaches the client; every other text goes on as it
// came.
import { describe, expect, it } from "vitest";
import { exactJsonNumbers } from "../../src/db/exact-json-numbers.js";

describe("exactJsonNumbers", () => {
  it("writes a number of more than 15 significant digits as the string of its digits, wherever it is", () => {
    expect(
      JSON.parse(
        exactJsonNumbers(
          '{"price_total":-99999999999999.999999,"lines":[{"quantity":12345678901234.567891}],"count":3}',
        ),
      ),
    ).toEqual({
      price_total: "-99999999999999.999999",
      lines: [{ quantity: "12345678901234.567891" }],
      count: 3,
    });
  });

  it("keeps a number a double holds exactly as a number, trailing and leading zeros aside", () => {
    const json = '{"a":10340.500000,"b":0.000000000000000120,"c":123456789012345,"d":1e300}';
    expect(exactJsonNumbers(json)).toBe(json);
  });

  it("counts a number's digits, not the characters of a text that merely looks long", () => {
    const json = '{"reference":"1234567890123456789","quantity":4.000000}';
    expect(exactJsonNumbers(json)).toBe(json);
    expect(JSON.parse(exactJsonNumbers('{"quantity":1234567890123456}'))).toEqual({
      quantity: "1234567890123456",
    });
  });

  it("leaves a text with no long number as it came, byte for byte", () => {
    const json = '{ "name" : "Müller \\"A\\"", "n" : 1.5 }';
    expect(exactJsonNumbers(json)).toBe(json);
  });
});
