// What /graphql keeps in memory stays within its configured bounds however many distinct
// documents clients send (docs/reference/operations.md, "Memory bounds"): automatic persisted queries
// forget the least recently used documents, and parsed documents are kept by estimated bytes.
import { createHash } from "node:crypto";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_GRAPHQL_MEMORY_BOUNDS, loadConfig } from "../../src/config.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { GRAPHQL } from "./helpers.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

async function post(harness: TestApp, key: string, body: unknown) {
  const response = await harness.app.fetch(GRAPHQL, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/graphql-response+json",
      "x-api-key": key,
    },
    body: JSON.stringify(body),
  });
  const parsed = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
  return { status: response.status, code: parsed.errors?.[0]?.extensions?.code };
}

/** A document of its own for `index`: `fields` selections of `__typename`, its name `padding` characters longer. */
const documentNumbered = (index: number, fields = 3, padding = 0) =>
  `query Numbered${index}${"_".repeat(padding)} { ${"__typename ".repeat(fields)}}`;

describe("automatic persisted queries within their bounds", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  const MAX_DOCUMENTS = 3;

  const register = (query: string) =>
    post(harness, buyer.apiKey, {
      query,
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } },
    });
  const byHash = (query: string) =>
    post(harness, buyer.apiKey, {
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256(query) } },
    });

  beforeAll(async () => {
    harness = await createTestApp({
      graphql: {
        memory: { ...DEFAULT_GRAPHQL_MEMORY_BOUNDS, apqMaxDocuments: MAX_DOCUMENTS, apqMaxBytes: 4_096 },
      },
    });
    buyer = await seedBuyer(harness.database, "Forgetful");
  }, 60_000);
  afterAll(() => harness.close());

  it("keeps the most recently used documents and forgets the oldest past the configured number", async () => {
    const documents = Array.from({ length: MAX_DOCUMENTS + 2 }, (_, index) => documentNumbered(index));
    for (const query of documents) expect(await register(query)).toEqual({ status: 200, code: undefined });
    const answers = [];
    // Newest first, so that asking does not itself refresh one about to be asked for.
    for (const query of [...documents].reverse()) answers.unshift(await byHash(query));
    expect(answers).toEqual([
      { status: 400, code: "PERSISTED_QUERY_NOT_FOUND" },
      { status: 400, code: "PERSISTED_QUERY_NOT_FOUND" },
      ...Array(MAX_DOCUMENTS).fill({ status: 200, code: undefined }),
    ]);
  });

  it("runs a document larger than the byte bound, but does not keep it", async () => {
    // Some 6,000 bytes of text, over the 4,096 configured.
    const large = documentNumbered(100, 3, 3_000);
    expect(await register(large)).toEqual({ status: 200, code: undefined });
    expect(await byHash(large)).toEqual({ status: 400, code: "PERSISTED_QUERY_NOT_FOUND" });
  });

  it("takes its bounds from the environment", () => {
    expect(
      loadConfig({
        GRAPHQL_APQ_MAX_DOCUMENTS: "50",
        GRAPHQL_APQ_MAX_BYTES: "100000",
        GRAPHQL_DOCUMENT_CACHE_MAX_BYTES: "2000000",
      }).graphql.memory,
    ).toEqual({ apqMaxDocuments: 50, apqMaxBytes: 100_000, documentCacheMaxBytes: 2_000_000 });
  });
});

describe("parsed documents within their bound", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let collectGarbage: () => void;

  beforeAll(async () => {
    setFlagsFromString("--expose-gc");
    collectGarbage = runInNewContext("gc") as () => void;
    harness = await createTestApp({
      graphql: { memory: { ...DEFAULT_GRAPHQL_MEMORY_BOUNDS, documentCacheMaxBytes: 4 * 1024 * 1024 } },
    });
    buyer = await seedBuyer(harness.database, "Flooding");
  }, 60_000);
  afterAll(() => harness.close());

  it("holds no more than its bound after a flood of distinct documents near the token limit", async () => {
    const heapUsed = () => {
      collectGarbage();
      return process.memoryUsage().heapUsed;
    };
    // Each is about 2,000 tokens, its syntax tree about a megabyte: variables nothing uses,
    // refused by validation, but parsed (and kept) first.
    const variables = Array.from({ length: 495 }, (_, index) => `$v${index}: Int`).join(" ");
    const flood = (from: number, count: number) =>
      Array.from(
        { length: count },
        (_, index) => `query Numbered${from + index}(${variables}) { __typename }`,
      );
    // Warm up what every request allocates once (schema caches, compiled code).
    for (const query of flood(0, 10)) await post(harness, buyer.apiKey, { query });
    const before = heapUsed();
    for (const query of flood(1_000, 60)) {
      await post(harness, buyer.apiKey, { query });
    }
    const grown = heapUsed() - before;
    // 60 documents, a megabyte each, were they all kept; the bound is 4 MiB.
    expect(grown).toBeLessThan(24 * 1024 * 1024);
  });
});
