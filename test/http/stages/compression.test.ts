// The compression stage codes what the endpoints and later stages answer.
import { brotliDecompressSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { createCompression } from "../../../src/http/compression.js";
import { compress } from "../../../src/http/stages/compression.js";
import { exchangeFor, stubNext } from "./exchange.js";

const page = JSON.stringify(Array.from({ length: 200 }, (_, index) => ({ index, name: `order ${index}` })));
const bigJson = () => new Response(page, { headers: { "content-type": "application/json" } });

describe("the compression stage", () => {
  it("answers in the coding the request prefers", async () => {
    const response = await compress(createCompression(true))(
      exchangeFor("/api/other", { headers: { "accept-encoding": "gzip, br" } }),
      stubNext(bigJson),
    );
    expect(response.headers.get("content-encoding")).toBe("br");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(brotliDecompressSync(Buffer.from(await response.arrayBuffer())).toString()).toBe(page);
  });

  it("sends the answer as it is when compression is off", async () => {
    const response = await compress(createCompression(false))(
      exchangeFor("/api/other", { headers: { "accept-encoding": "br" } }),
      stubNext(bigJson),
    );
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(await response.text()).toBe(page);
  });
});
