// Request bodies: what a client sending JSON is told when the body cannot be
// taken, before anything reads it: 413, 415 or 400 with a code saying why.
import { describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, MAX_BODY_DEPTH, readJsonObject } from "../../src/http/json-body.js";

const post = (
  body: string | undefined,
  headers: Record<string, string> = { "content-type": "application/json" },
) => readJsonObject(new Request("http://localhost/api", { method: "POST", body, headers }));

describe("a JSON request body", () => {
  it("is read as an object; an empty body counts as {}", async () => {
    expect(await post('{"name":"Acid"}')).toEqual({ value: { name: "Acid" } });
    expect(await post(undefined, {})).toEqual({ value: {} });
    expect(await post("  ", {})).toEqual({ value: {} });
  });

  it("may be any application/*+json media type, with parameters", async () => {
    expect(await post("{}", { "content-type": "application/merge-patch+json; charset=utf-8" })).toEqual({
      value: {},
    });
  });

  it("that is not JSON by its type is refused 415", async () => {
    const result = await post("{}", { "content-type": "text/plain" });
    expect(result).toMatchObject({ problem: { status: 415, code: "unsupported_media_type" } });
  });

  it("that is coded is refused 415, naming identity as the only coding taken", async () => {
    const result = await post("{}", { "content-type": "application/json", "content-encoding": "gzip" });
    expect(result).toMatchObject({
      problem: { status: 415, code: "unsupported_media_type", headers: { "accept-encoding": "identity" } },
    });
    expect(await post("{}", { "content-type": "application/json", "content-encoding": "identity" })).toEqual({
      value: {},
    });
  });

  it("that is not a JSON object is refused 400 invalid_json", async () => {
    for (const body of ["{", "[1]", "null", '"text"', "42"]) {
      expect(await post(body), body).toMatchObject({ problem: { status: 400, code: "invalid_json" } });
    }
  });

  it(`that nests more than ${MAX_BODY_DEPTH} levels is refused 400, however deep`, async () => {
    const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;
    expect(await post(nested(MAX_BODY_DEPTH))).toHaveProperty("value");
    expect(await post(nested(MAX_BODY_DEPTH + 1))).toMatchObject({
      problem: { status: 400, code: "invalid_json" },
    });
    expect(await post(nested(100_000))).toMatchObject({ problem: { status: 400, code: "invalid_json" } });
  });

  it("over 1 MiB is refused 413, whether its length is declared or not", async () => {
    const large = JSON.stringify({ text: "x".repeat(MAX_BODY_BYTES) });
    expect(await post(large)).toMatchObject({ problem: { status: 413, code: "payload_too_large" } });
    expect(
      await post("{}", { "content-type": "application/json", "content-length": String(MAX_BODY_BYTES + 1) }),
    ).toMatchObject({ problem: { status: 413 } });
  });
});
