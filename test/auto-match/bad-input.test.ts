// Names no catalogue product has: empty, absurd, huge, invisible. The
// contract refuses some (422); every other one is simply not a match, and
// nothing makes auto-match fail.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { createBuyerProduct, graphql, importCatalogue, MATCH_PRODUCT, NEW_PRODUCT } from "./support.js";

describe("auto-match with absurd names", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Absurd");
    // Names a careless matcher would reach for: empty after normalising, or one letter long.
    await importCatalogue(harness.database, [{ name: "???" }, { name: "A" }, { name: "Sodium" }]);
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each([
    ["empty", "", "required"],
    ["blank", "   ", "required"],
    ["whitespace of every kind", "\t\n\u00a0\u2003", "required"],
    ["256 characters", "x".repeat(256), "too_long"],
    ["10,000 characters", "Sodium Chloride ".repeat(625), "too_long"],
    ["256 emoji", "🧪".repeat(256), "too_long"],
  ])("answers 422 for a raw_material_name that is %s", async (_label, name, code) => {
    const created = await createBuyerProduct(harness.app, buyer.apiKey, { raw_material_name: name });
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({
      code: "validation_failed",
      errors: [{ field: "raw_material_name", code }],
    });
  });

  it("accepts 255 characters, counted as characters, not UTF-16 units", async () => {
    const created = await createBuyerProduct(harness.app, buyer.apiKey, {
      raw_material_name: "🧪".repeat(255),
    });
    expect(created.status).toBe(201);
    expect(created.autoMatch).toEqual(NEW_PRODUCT);
  });

  it.each([
    ["only punctuation", "!!! ... ---"],
    ["the catalogue's punctuation-only name", "???"],
    ["only symbols", "±§©®™ %%% &&&"],
    ["only emoji", "😀🧪🏳️‍🌈"],
    ["only control characters", "\u0007\u0008\u001b"],
    ["only invisible characters", "\u200b\u200d\u2060"],
    ["right-to-left marks around nothing", "\u202e\u202c"],
  ])("creates a new catalogue product for %s: the name matches nothing", async (_label, name) => {
    const first = await createBuyerProduct(harness.app, buyer.apiKey, { raw_material_name: name });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.autoMatch).toEqual(NEW_PRODUCT);
    // Not even the product just created for the same name: an empty name is no identity.
    const again = await createBuyerProduct(harness.app, buyer.apiKey, { raw_material_name: name });
    expect(again.autoMatch).toEqual(NEW_PRODUCT);
    expect(again.productId).not.toBe(first.productId);
  });

  it("does not match a one-letter name to a catalogue name that merely starts with it", async () => {
    const created = await createBuyerProduct(harness.app, buyer.apiKey, { raw_material_name: "S" });
    expect(created.autoMatch).toEqual(NEW_PRODUCT);
  });

  it("answers every string with candidates or a validation error, never a failure", async () => {
    const names = fc.oneof(
      fc.string({ unit: "binary", maxLength: 300 }),
      fc.string({ unit: "binary-ascii", maxLength: 300 }),
      fc.string({ unit: "grapheme", maxLength: 120 }),
      fc.constantFrom("Sodium", "sodium!!", "A", "a", "???", "56-81-5", "00-00-0"),
    );
    await fc.assert(
      fc.asyncProperty(names, async (name) => {
        const response = await graphql<{ matchProduct: unknown[] }>(
          harness.app,
          buyer.apiKey,
          MATCH_PRODUCT,
          {
            name,
            type: "RAW_MATERIAL",
          },
        );
        expect(response.status).toBe(200);
        if (response.errors) {
          expect(response.errors.map((error) => error.extensions?.code)).toEqual(["VALIDATION_FAILED"]);
        } else {
          expect(Array.isArray(response.data?.matchProduct)).toBe(true);
        }
      }),
      { numRuns: 80 },
    );
  });
});
