// Every limit refusal is HTTP 400 with its code, whatever media type the client accepts: a
// client that takes only `application/json` learns of the refusal from the status too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { GRAPHQL } from "./helpers.js";

const ACCEPTS: (string | null)[] = [
  "application/graphql-response+json",
  "application/json",
  "application/graphql-response+json, application/json",
  "*/*",
  null,
];

describe("the status of a refused operation", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;

  /** Documents each refused by exactly one limit of the configuration below. */
  const REFUSED: Record<string, string> = {
    TOKEN_LIMIT_EXCEEDED: `{ ${"__typename ".repeat(60)}}`,
    DEPTH_LIMIT_EXCEEDED: "{ orders { edges { node { id } } } }",
    ALIAS_LIMIT_EXCEEDED: "{ a: viewer { __typename } b: viewer { __typename } c: viewer { __typename } }",
    DIRECTIVE_LIMIT_EXCEEDED: "{ __typename @include(if: true) __typename @skip(if: false) }",
    COST_LIMIT_EXCEEDED: "{ orders(first: 500) { totalCount } }",
  };

  beforeAll(async () => {
    harness = await createTestApp({
      graphql: {
        limits: { maxDepth: 3, maxAliases: 2, maxCost: 50, maxTokens: 50, maxDirectives: 1 },
      },
    });
    buyer = await seedBuyer(harness.database, "Refused Client");
  });
  afterAll(async () => {
    await harness?.close();
  });

  it.each(Object.keys(REFUSED))("is 400 for %s, whatever the client accepts", async (code) => {
    for (const accept of ACCEPTS) {
      for (const method of ["POST", "GET"] as const) {
        const query = REFUSED[code] ?? "";
        const response = await harness.app.fetch(
          method === "GET" ? `${GRAPHQL}?query=${encodeURIComponent(query)}` : GRAPHQL,
          {
            method,
            headers: {
              "x-api-key": buyer.apiKey,
              ...(accept ? { accept } : {}),
              ...(method === "POST" ? { "content-type": "application/json" } : {}),
            },
            ...(method === "POST" ? { body: JSON.stringify({ query }) } : {}),
          },
        );
        const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
        expect({ accept, method, status: response.status, code: body.errors?.[0]?.extensions?.code }).toEqual(
          {
            accept,
            method,
            status: 400,
            code,
          },
        );
      }
    }
  });
});
