// Buyers (or one integration retrying in parallel) create the same new
// product at the same moment: the catalogue gets one product, and every buyer
// product points at it. On PostgreSQL the requests really overlap (the pool
// has room for all of them); on PGlite they run one after another.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SqlConnection } from "../../src/db/sql-connection.js";
import { eventually } from "../support/eventually.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { onPostgres } from "../support/test-database.js";
import { type Created, createBuyerProduct } from "./support.js";

const PARALLEL = 8;

describe("concurrent creations of the same new product", () => {
  let harness: TestApp;
  let buyers: SeededBuyer[];

  beforeAll(async () => {
    harness = await createTestApp();
    buyers = [await seedBuyer(harness.database, "First"), await seedBuyer(harness.database, "Second")];
  });
  afterAll(async () => {
    await harness?.close();
  });

  async function createAll(names: readonly Record<string, unknown>[]): Promise<Created[]> {
    const results = await Promise.all(
      names.map((fields, index) =>
        createBuyerProduct(harness.app, buyers[index % buyers.length]?.apiKey ?? "", fields),
      ),
    );
    for (const result of results) expect(result.status, JSON.stringify(result.body)).toBe(201);
    return results;
  }

  async function cataloguePointedAt(results: Created[]): Promise<string[]> {
    const ids = [...new Set(results.map((result) => result.productId))];
    const rows = await harness.database.prisma.buyerProduct.findMany({
      where: { id: { in: results.map((result) => String(result.body.id)) } },
      select: { productId: true },
    });
    expect(rows).toHaveLength(results.length);
    expect(new Set(rows.map((row) => row.productId))).toEqual(new Set(ids));
    return ids;
  }

  it(`${PARALLEL} parallel POSTs of one new name, written ${PARALLEL} ways, create one catalogue product`, async () => {
    const spellings = [
      "Novel Polymer Resin X",
      "NOVEL POLYMER RESIN X",
      "novel-polymer resin x",
      "Novel Polymer Resin X USP",
      "Novel Polymer Resin X 200 kg drum",
      "  Novel   Polymer Resin X  ",
      "Novel Polymer Resin X, technical grade",
      "Novel Polymer Resin X (BP)",
    ];
    const results = await createAll(spellings.map((raw_material_name) => ({ raw_material_name })));

    const ids = await cataloguePointedAt(results);
    expect(ids).toHaveLength(1);
    const products = await harness.database.prisma.product.findMany({
      where: { normalizedName: "novel polymer resin x" },
    });
    expect(products.map((product) => product.id)).toEqual(ids);
    expect(results.filter((result) => !result.autoMatch.matched)).toHaveLength(1);
  });

  it("similar new names created at once give one product, the others matching it by similar name", async () => {
    const names = ["Sodium Cocoyl Glutamate", "Sodium Cocoyl Glutamat"];
    const results = await createAll(
      Array.from({ length: PARALLEL }, (_, index) => ({ raw_material_name: names[index % names.length] })),
    );
    expect(await cataloguePointedAt(results)).toHaveLength(1);
    expect(new Set(results.map((result) => result.autoMatch.strategy))).toEqual(
      new Set(["none", "name", "similar_name"]),
    );
  });

  it("one new CAS number under different names and product types gives one product", async () => {
    const types = ["Raw Material", "Fragrance", "Dye", "Other"];
    const results = await createAll(
      Array.from({ length: PARALLEL }, (_, index) => ({
        raw_material_name: `Supplier name ${index} (CAS 5392-40-5)`,
        product_type: types[index % types.length],
      })),
    );
    expect(await cataloguePointedAt(results)).toHaveLength(1);
    expect(await harness.database.prisma.product.count({ where: { casNumber: "5392-40-5" } })).toBe(1);
  });
});

// What a creation of a new product makes others wait for. PGlite runs one
// transaction at a time, so only PostgreSQL can show it.

describe.runIf(onPostgres)("while one new product is being created", { timeout: 60_000 }, () => {
  let harness: TestApp;
  let held: SeededBuyer;
  let other: SeededBuyer;
  let blocker: SqlConnection;

  beforeAll(async () => {
    harness = await createTestApp();
    held = await seedBuyer(harness.database, "Held");
    other = await seedBuyer(harness.database, "Other");
    blocker = await harness.database.connect();
  });
  afterAll(async () => {
    await blocker?.release();
    await harness?.close();
  });

  /**
   * Starts creating `name` for the held buyer and returns once that creation
   * is stuck inside its transaction, past auto-match: the buyer's row is
   * locked, so inserting the buyer product waits. `release` lets it finish.
   */
  async function startHeldCreation(name: string) {
    await blocker.query("BEGIN");
    await blocker.query("SELECT id FROM buyers WHERE id = $1 FOR UPDATE", [held.buyerId]);
    const creation = createBuyerProduct(harness.app, held.apiKey, { raw_material_name: name });
    // Not asked on `blocker`: activity seen inside a transaction stays as it was at its first look.
    await eventually(async () => {
      const [row] = await harness.database.prisma.$queryRawUnsafe<{ waiting: number }[]>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity
         WHERE datname = current_database() AND wait_event_type = 'Lock' AND query ILIKE '%buyer_products%'`,
      );
      return row?.waiting === 1 ? true : null;
    });
    return {
      creation,
      release: async () => {
        await blocker.query("ROLLBACK");
        return creation;
      },
    };
  }

  const settledWithin = <T>(promise: Promise<T>, ms: number) =>
    Promise.race([
      promise.then(() => true),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms)),
    ]);

  it("another new name of the same product type is created without waiting for it", async () => {
    const { release } = await startHeldCreation("Held Pigment Base");
    try {
      const unrelated = createBuyerProduct(harness.app, other.apiKey, {
        raw_material_name: "Unrelated Wax Blend",
      });
      expect(await settledWithin(unrelated, 5_000)).toBe(true);
      expect((await unrelated).status).toBe(201);
    } finally {
      expect((await release()).status).toBe(201);
    }
  });

  it("a similar new name waits for it, then matches the product it created", async () => {
    const { release } = await startHeldCreation("Sodium Cocoyl Glutamate");
    let similar: Promise<Created> | undefined;
    let first: Created | undefined;
    try {
      similar = createBuyerProduct(harness.app, other.apiKey, {
        raw_material_name: "Sodium Cocoyl Glutamat",
      });
      expect(await settledWithin(similar, 1_000)).toBe(false);
    } finally {
      first = await release();
    }
    const second = await similar;
    expect(first.status).toBe(201);
    expect(second?.status).toBe(201);
    expect(second?.productId).toBe(first.productId);
    expect(second?.autoMatch.strategy).toBe("similar_name");
  });
});
