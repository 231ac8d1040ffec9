// Which coding an answer goes out in, from the request's Accept-Encoding
// (RFC 9110 §12.5.3): brotli or gzip as weighted, br first on a tie, `*` for
// the codings not named, a malformed weight as not sent; identity when nothing
// else is accepted, and for bodies under 1 KiB where the request allows it.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { codingFor, createCompression, negotiateCoding } from "../../src/http/compression.js";

const page = JSON.stringify(Array.from({ length: 40 }, (_, index) => ({ index, reference: `SO-${index}` })));

function decoded(coding: string | null, bytes: ArrayBuffer): string {
  if (coding === "br") return brotliDecompressSync(Buffer.from(bytes)).toString("utf8");
  if (coding === "gzip") return gunzipSync(Buffer.from(bytes)).toString("utf8");
  expect(coding).toBeNull();
  return Buffer.from(bytes).toString("utf8");
}

describe("Accept-Encoding", () => {
  const compression = createCompression(true);

  it.each([
    ["gzip, br", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["gzip;q=0, br", "br"],
    ["gzip;q=0, br;q=0", null],
    ["identity", null],
    ["identity;q=0.5, gzip;q=0.4", null],
    ["*", "br"],
    ["*;q=0.1, br;q=0", "gzip"],
    ["x-gzip", "gzip"],
    ["br;q=high, gzip", "gzip"],
    ["", null],
  ])("%s gets a page in %s that decodes to the page", async (accept, coding) => {
    const request = new Request("http://localhost/api/things", { headers: { "accept-encoding": accept } });
    const response = await compression.compress(
      request,
      new Response(page, { headers: { "content-type": "application/json" } }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBe(coding);
    expect(JSON.parse(decoded(coding, await response.arrayBuffer()))).toHaveLength(40);
  });

  it("absent gets the body as it is", () => {
    expect(negotiateCoding(null)).toEqual({ preferred: "identity", identity: true });
  });

  it("refusing identity and accepting a coding gets the coding even for a small body", () => {
    for (const accept of ["identity;q=0, gzip", "*;q=0, br"]) {
      const accepted = negotiateCoding(accept);
      expect(accepted.identity).toBe(false);
      expect(codingFor(accepted, 10)).not.toBe("identity");
    }
  });

  it("that accepts identity gets a body under 1 KiB as it is, and one of 1 KiB coded", () => {
    const accepted = negotiateCoding("br");
    expect(codingFor(accepted, 1023)).toBe("identity");
    expect(codingFor(accepted, 1024)).toBe("br");
  });

  it("refusing every coding and identity still gets the body as it is", () => {
    expect(negotiateCoding("*;q=0")).toEqual({ preferred: "identity", identity: true });
  });

  it("is not looked at when compression is off", () => {
    expect(
      createCompression(false).acceptedBy(
        new Request("http://localhost/", { headers: { "accept-encoding": "br" } }),
      ),
    ).toEqual({ preferred: "identity", identity: true });
  });
});
