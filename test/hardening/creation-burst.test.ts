// Bursts of new products of one product type, as an integration loading a
// buyer's catalogue in parallel sends them. Every request is created, or told
// to retry (503 overloaded with Retry-After) when the database cannot take it
// now; never a 500. And however the requests interleave, each distinct new
// name makes one catalogue product. On PostgreSQL the requests really overlap;
// PGlite runs them one after another.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type App, createApp } from "../../src/app.js";
import { createLogger } from "../../src/logger.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { callApi, testConfig } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

const REQUESTS = 150;
const DISTINCT_NAMES = 50;

interface Outcome {
  status: number;
  name: string;
  productId?: string;
  retryAfter: string | null;
  code?: string;
}

describe("a burst of product creations of one product type", { timeout: 180_000 }, () => {
  let database: TestDatabase;
  let app: App;
  let buyers: SeededBuyer[];

  beforeAll(async () => {
    // The default pool of 10 connections, as in production.
    database = await createTestDatabase({ poolSize: 10 });
    app = createApp({
      config: testConfig(),
      database,
      logger: createLogger(process.env.TEST_LOG_LEVEL ?? "silent"),
    });
    buyers = [await seedBuyer(database, "Burst One"), await seedBuyer(database, "Burst Two")];
  }, 60_000);
  afterAll(async () => {
    await database?.close();
  });

  function expectCreatedOrToldToRetry(outcomes: Outcome[]): void {
    const tally = new Map<string, number>();
    for (const { status, code } of outcomes) {
      const label = status === 201 ? "201" : `${status} ${code}`;
      tally.set(label, (tally.get(label) ?? 0) + 1);
    }
    console.info(`burst of ${outcomes.length}:`, Object.fromEntries(tally));
    for (const outcome of outcomes.filter(({ status }) => status !== 201)) {
      expect(outcome, "only 503 overloaded with Retry-After may refuse").toMatchObject({
        status: 503,
        code: "overloaded",
        retryAfter: expect.stringMatching(/^\d+$/),
      });
    }
  }

  /** Every name that was created points at exactly one catalogue product, made for that name. */
  async function expectOneProductPerName(outcomes: Outcome[], prefix: string): Promise<void> {
    const created = outcomes.filter((outcome) => outcome.status === 201);
    const productOf = new Map<string, Set<string>>();
    for (const outcome of created) {
      productOf.set(outcome.name, (productOf.get(outcome.name) ?? new Set()).add(outcome.productId ?? ""));
    }
    for (const [name, products] of productOf) expect(products.size, name).toBe(1);
    const products = await database.prisma.product.findMany({
      where: { normalizedName: { startsWith: prefix.toLowerCase() } },
      select: { id: true },
    });
    expect(new Set(products.map((product) => product.id))).toEqual(
      new Set([...productOf.values()].flatMap((ids) => [...ids])),
    );
  }

  it(`${REQUESTS} concurrent POST /buyer_products of ${DISTINCT_NAMES} new names: created or 503, one product per name`, async () => {
    const outcomes = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, index): Promise<Outcome> => {
        const name = `Burst Polymer ${index % DISTINCT_NAMES}`;
        const response = await callApi(app, "POST", "/buyer_products", {
          key: buyers[index % buyers.length]?.apiKey,
          body: { raw_material_name: name, measurement_unit: "kg", product_type: "Raw Material" },
        });
        const body = response.body as { product_id?: string; code?: string };
        return {
          status: response.status,
          name,
          productId: body.product_id,
          retryAfter: response.headers.get("retry-after"),
          code: body.code,
        };
      }),
    );
    expectCreatedOrToldToRetry(outcomes);
    await expectOneProductPerName(outcomes, "Burst Polymer");
  });

  it("the same burst over GraphQL: created, or OVERLOADED with HTTP 503 and Retry-After", async () => {
    const mutation = `mutation Create($input: CreateBuyerProductInput!) {
      createBuyerProduct(input: $input) { buyerProduct { product { id } } }
    }`;
    const outcomes = await Promise.all(
      Array.from({ length: REQUESTS }, async (_, index): Promise<Outcome> => {
        const name = `Graph Burst Polymer ${index % DISTINCT_NAMES}`;
        const response = await app.fetch("http://localhost/graphql", {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-api-key": buyers[index % buyers.length]?.apiKey ?? "",
          },
          body: JSON.stringify({
            query: mutation,
            variables: {
              input: { rawMaterialName: name, measurementUnit: "KG", productType: "RAW_MATERIAL" },
            },
          }),
        });
        const body = (await response.json()) as {
          data?: { createBuyerProduct: { buyerProduct: { product: { id: string } } } | null };
          errors?: { extensions?: { code?: string } }[];
        };
        const [error] = body.errors ?? [];
        const created = body.data?.createBuyerProduct;
        return {
          status: created ? 201 : response.status,
          name,
          productId: created?.buyerProduct.product.id,
          retryAfter: response.headers.get("retry-after"),
          code: error?.extensions?.code?.toLowerCase(),
        };
      }),
    );
    expectCreatedOrToldToRetry(outcomes);
    await expectOneProductPerName(outcomes, "Graph Burst Polymer");
  });
});
