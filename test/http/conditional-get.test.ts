// Conditional and cached reads in front of an endpoint, in process: a tag per
// version, URL and buyer; a 304 for the tag a client holds in any coding; an
// answer from the cache while the version is unchanged, in a coding the
// request accepts, never reaching the endpoint.
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { negotiateCoding } from "../../src/http/compression.js";
import {
  type ConditionalGets,
  createConditionalGets,
  type ReadState,
} from "../../src/http/conditional-get.js";
import { createResponseCache } from "../../src/http/response-cache.js";

const PAGE = new URL("https://api.example.test/api/things?limit=40");
const state = (version: bigint, buyerId = "buyer-a"): ReadState => ({ buyerId, version });
const bigPage = JSON.stringify(
  Array.from({ length: 100 }, (_, index) => ({ index, name: `thing ${index}` })),
);

/** Conditional reads over a cache of `cacheBytes`, counting what they did. */
function conditionalReads(cacheBytes = 1024 * 1024): ConditionalGets & {
  counted: { notModified: number; hit: number; miss: number };
} {
  const counted = { notModified: 0, hit: 0, miss: 0 };
  const gets = createConditionalGets({
    salt: "test",
    cache: createResponseCache(cacheBytes),
    counters: {
      notModified() {
        counted.notModified += 1;
      },
      hit() {
        counted.hit += 1;
      },
      miss() {
        counted.miss += 1;
      },
    },
  });
  return Object.assign(gets, { counted });
}

/** An endpoint answering `body`, counting its calls. */
function endpoint(body = bigPage, status = 200) {
  const calls = { count: 0 };
  const execute = async () => {
    calls.count += 1;
    return new Response(body, { status, headers: { "content-type": "application/json" } });
  };
  return Object.assign(execute, { calls });
}

const withNoneMatch = (value: string) => new Request(PAGE, { headers: { "if-none-match": value } });

function decoded(coding: string | null, bytes: ArrayBuffer): string {
  const buffer = Buffer.from(bytes);
  if (coding === "br") return brotliDecompressSync(buffer).toString();
  if (coding === "gzip") return gunzipSync(buffer).toString();
  return buffer.toString();
}

describe("the tag of a read", () => {
  const gets = conditionalReads();
  const tag = gets.entityTag(PAGE, state(7n));

  it("is strong and starts with the version of what the read shows", () => {
    expect(tag).toMatch(/^"7-[0-9a-f]{16}"$/);
  });

  it("differs for another version, buyer, path, query or origin", () => {
    const others = [
      gets.entityTag(PAGE, state(8n)),
      gets.entityTag(PAGE, state(7n, "buyer-b")),
      gets.entityTag(new URL("https://api.example.test/api/other?limit=40"), state(7n)),
      gets.entityTag(new URL("https://api.example.test/api/things?limit=41"), state(7n)),
      gets.entityTag(new URL("https://other.example.test/api/things?limit=40"), state(7n)),
    ];
    expect(new Set([tag, ...others]).size).toBe(6);
  });

  it("differs from the tag another build (salt) would write for the same read", () => {
    const otherBuild = createConditionalGets({
      salt: "another build",
      cache: createResponseCache(0),
      counters: { notModified() {}, hit() {}, miss() {} },
    });
    expect(otherBuild.entityTag(PAGE, state(7n))).not.toBe(tag);
  });
});

describe("If-None-Match", () => {
  const gets = conditionalReads();
  const current = gets.entityTag(PAGE, state(7n));
  const coded = `${current.slice(0, -1)}-br"`;

  it("claims the versions of the tags of ours it lists, for admission to check", () => {
    const request = withNoneMatch(
      `${coded}, "3-0123456789abcdef-gz", "someone-else's", W/"9-0123456789abcdef"`,
    );
    expect(gets.claimedVersions(request)).toEqual([7n, 3n, 9n]);
    expect(gets.claimedVersions(withNoneMatch("*"))).toEqual([]);
    expect(gets.claimedVersions(new Request(PAGE))).toEqual([]);
  });

  it("naming the current tag in any coding gets a 304 carrying the tag the client holds", () => {
    for (const held of [current, coded, `W/${current}`]) {
      const response = gets.notModified(withNoneMatch(`"1-0000000000000000", ${held}`), PAGE, state(7n));
      expect(response?.status).toBe(304);
      expect(response?.headers.get("etag")).toBe(held.replace(/^W\//, ""));
      expect(response?.headers.get("cache-control")).toBe("private, no-cache");
    }
    expect(gets.counted.notModified).toBe(3);
  });

  it("naming an older version, another page or nothing of ours gets no 304", () => {
    const older = gets.entityTag(PAGE, state(6n));
    const otherPage = gets.entityTag(new URL("https://api.example.test/api/things?limit=39"), state(7n));
    for (const header of [older, otherPage, '"garbage"', "not a list"])
      expect(gets.notModified(withNoneMatch(header), PAGE, state(7n))).toBeNull();
    expect(gets.notModified(new Request(PAGE), PAGE, state(7n))).toBeNull();
  });
});

describe("cached reads", () => {
  it("answer a second read of the same version from the cache, without the endpoint, with the same bytes and tag", async () => {
    const gets = conditionalReads();
    const execute = endpoint();
    const first = await gets.serve(PAGE, state(7n), execute);
    const second = await gets.serve(PAGE, state(7n), execute);
    expect(execute.calls.count).toBe(1);
    expect(gets.counted).toMatchObject({ miss: 1, hit: 1 });
    expect(await second.text()).toBe(await first.text());
    expect(second.headers.get("etag")).toBe(first.headers.get("etag"));
    expect(first.headers.get("etag")).toBe(gets.entityTag(PAGE, state(7n)));
    expect(second.headers.get("cache-control")).toBe("private, no-cache");
  });

  it("ask the endpoint again once the buyer's data has moved on, and keep buyers apart", async () => {
    const gets = conditionalReads();
    const execute = endpoint();
    await gets.serve(PAGE, state(7n), execute);
    await gets.serve(PAGE, state(8n), execute);
    await gets.serve(PAGE, state(8n, "buyer-b"), execute);
    expect(execute.calls.count).toBe(3);
  });

  it("answer in the coding each request prefers, from one entry, tagged per coding", async () => {
    const gets = conditionalReads();
    const execute = endpoint();
    const plainTag = gets.entityTag(PAGE, state(7n));
    for (const [accept, coding, tag] of [
      ["br", "br", `${plainTag.slice(0, -1)}-br"`],
      ["gzip", "gzip", `${plainTag.slice(0, -1)}-gz"`],
      [null, null, plainTag],
      ["br;q=0, gzip;q=0", null, plainTag],
    ] as const) {
      const response = await gets.serve(PAGE, state(7n), execute, undefined, negotiateCoding(accept));
      expect(response.headers.get("content-encoding")).toBe(coding);
      expect(response.headers.get("etag")).toBe(tag);
      expect(decoded(coding, await response.arrayBuffer())).toBe(bigPage);
    }
    expect(execute.calls.count).toBe(1);
  });

  it("send a body under 1 KiB as it is, unless the request refuses that", async () => {
    const gets = conditionalReads();
    const small = endpoint('{"small":true}');
    const plain = await gets.serve(PAGE, state(7n), small, undefined, negotiateCoding("br"));
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe('{"small":true}');
    const refusing = await gets.serve(PAGE, state(7n), small, undefined, negotiateCoding("identity;q=0, br"));
    expect(refusing.headers.get("content-encoding")).toBe("br");
    expect(decoded("br", await refusing.arrayBuffer())).toBe('{"small":true}');
  });

  it("keep no answer but a 200", async () => {
    const gets = conditionalReads();
    const refused = endpoint('{"code":"not_found"}', 404);
    for (let index = 0; index < 2; index += 1)
      expect((await gets.serve(PAGE, state(7n), refused)).status).toBe(404);
    expect(refused.calls.count).toBe(2);
  });

  it("still tag every answer when the cache is off, asking the endpoint each time", async () => {
    const gets = conditionalReads(0);
    const execute = endpoint();
    const answers = [await gets.serve(PAGE, state(7n), execute), await gets.serve(PAGE, state(7n), execute)];
    expect(execute.calls.count).toBe(2);
    for (const answer of answers) expect(answer.headers.get("etag")).toBe(gets.entityTag(PAGE, state(7n)));
  });
});
