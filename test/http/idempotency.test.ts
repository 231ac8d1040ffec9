// An Idempotency-Key that is empty, blank or longer than 255 characters is
// refused with 422 naming the header, before anything runs or is kept.
import { describe, expect, it } from "vitest";
import { respondIdempotently } from "../../src/http/idempotency.js";
import type { IdempotencyStore } from "../../src/services/idempotency-store.js";

/** A refused key must reach neither the store nor the work. */
const untouchedStore: IdempotencyStore = {
  run: () => Promise.reject(new Error("the store was asked")),
};
const request = (key: string) => ({
  apiKeyId: "key-1",
  key,
  method: "POST",
  pathname: "/api/public/buyer/v1/taggings",
  body: { tag_ids: [] },
  requestId: "req-idem",
});

describe("an Idempotency-Key", () => {
  it.each([
    ["empty", ""],
    ["blank", "   "],
    ["of 256 characters", "k".repeat(256)],
  ])("that is %s is refused with 422 naming the header, and nothing runs", async (_name, key) => {
    let ran = false;
    const response = await respondIdempotently(untouchedStore, request(key), async () => {
      ran = true;
      return new Response("{}");
    });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
    expect(await response.json()).toMatchObject({
      code: "validation_failed",
      detail: "Idempotency-Key must be 1 to 255 characters",
      errors: [{ field: "Idempotency-Key", code: "invalid", message: "must be 1 to 255 characters" }],
      request_id: "req-idem",
    });
    expect(ran).toBe(false);
  });

  it("of 255 characters is taken to the store", async () => {
    await expect(
      respondIdempotently(untouchedStore, request("k".repeat(255)), async () => new Response("{}")),
    ).rejects.toThrow("the store was asked");
  });
});
