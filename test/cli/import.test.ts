import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/auth/api-key-format.js";
import { catalogueKeys } from "../../src/domain/product-identity.js";
import { type ImportOutcome, importData, importFile } from "../../src/import/import.js";
import { formatProblem } from "../../src/import/problems.js";
import type { KindCount } from "../../src/import/write.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

// A small valid import file (docs/reference/import-format.md), kept beside the tests that read it.
const EXAMPLE = path.join(path.dirname(fileURLToPath(import.meta.url)), "fixtures", "example.json");
const BUYER = "00000000-0000-4000-8000-000000001001";
const EXAMPLE_KEY = "bpk_example_0123456789abcdefghijklmnopqrstuv";

const TABLES = [
  "buyers",
  "api_keys",
  "suppliers",
  "supplier_connections",
  "supplier_users",
  "tag_groups",
  "tags",
  "products",
  "buyer_products",
  "buyer_product_resource_values",
  "buyer_product_approvals",
  "delivery_sites",
  "order_types",
  "orders",
  "order_resource_values",
  "taggings",
];

type ExampleFile = {
  version: number;
  buyers: { id: string; name?: string; api_keys: string[] }[];
  orders: Record<string, unknown>[];
  taggings: { taggable_id: string; tag_id: string }[];
  [key: string]: unknown;
};

function example(): ExampleFile {
  return JSON.parse(readFileSync(EXAMPLE, "utf8")) as ExampleFile;
}

function expectImported(outcome: ImportOutcome): KindCount[] {
  if (!outcome.ok) throw new Error(`import failed:\n${outcome.problems.map(formatProblem).join("\n")}`);
  return outcome.counts;
}

function expectRejected(outcome: ImportOutcome): string[] {
  if (outcome.ok) throw new Error("the import was accepted");
  return outcome.problems.map(formatProblem);
}

describe("import", () => {
  let database: TestDatabase;

  async function sql<Row>(text: string, params: unknown[] = []): Promise<Row[]> {
    const connection = await database.connect();
    try {
      return await connection.query<Row>(text, params);
    } finally {
      await connection.release();
    }
  }

  async function rowCounts(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of TABLES) {
      const [row] = await sql<{ count: number }>(`SELECT count(*)::int AS count FROM ${table}`);
      counts[table] = row?.count ?? -1;
    }
    return counts;
  }

  /** Every row of every imported table, timestamps included, in a stable order. */
  async function snapshot(): Promise<Record<string, unknown[]>> {
    const tables: Record<string, unknown[]> = {};
    for (const table of TABLES) {
      tables[table] = await sql(`SELECT * FROM ${table} ORDER BY 1, 2`);
    }
    return tables;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("loads the example file: every row, with the file's values, decimals exact and enums as the contract spells them", async () => {
    const counts = expectImported(await importFile(database, EXAMPLE));
    expect(counts.find((count) => count.kind === "orders")).toMatchObject({ inserted: 2, updated: 0 });
    expect(await rowCounts()).toEqual({
      buyers: 1,
      api_keys: 1,
      suppliers: 2,
      supplier_connections: 1,
      supplier_users: 0,
      tag_groups: 1,
      tags: 2,
      products: 2,
      buyer_products: 1,
      buyer_product_resource_values: 1,
      buyer_product_approvals: 2,
      delivery_sites: 1,
      order_types: 2,
      orders: 2,
      order_resource_values: 0,
      taggings: 1,
    });

    const [order] = await sql<Record<string, unknown>>(
      `SELECT quantity::text, price_per_uom::text, tax_amount::text, tax_percentage::text, price_total::text,
              currency, price_type::text, order_status::text, purchase_order_reference, supplier_order_reference,
              placed_at, created_at, updated_at
         FROM orders WHERE id = '00000000-0000-4000-8000-000000008001'`,
    );
    expect(order).toEqual({
      quantity: "4.000000",
      price_per_uom: "2.350000",
      tax_amount: "940.000000",
      tax_percentage: "10.0000",
      price_total: "10340.000000",
      currency: "AUD",
      price_type: "ex_stock",
      order_status: "order_placed",
      purchase_order_reference: "PO-7781",
      supplier_order_reference: null,
      placed_at: new Date("2025-02-01T03:00:00.000Z"),
      created_at: new Date("2025-02-01T02:59:00.000Z"),
      updated_at: new Date("2025-02-01T03:00:00.000Z"),
    });

    const products = await sql<Record<string, unknown>>(
      `SELECT name, product_type::text, code, normalized_code, cas_number, synonyms, normalized_name, normalized_synonyms
         FROM products ORDER BY name`,
    );
    // The match keys are the catalogue keys of the domain (auto-match compares them).
    const glycerin = catalogueKeys({
      name: "Glycerin",
      code: null,
      synonyms: ["Glycerol", "Glycerine"],
      productType: "Raw Material",
    });
    const sls = catalogueKeys({
      name: "Sodium Lauryl Sulfate",
      code: "SLS-100",
      synonyms: ["SLS", "Sodium Dodecyl Sulfate"],
      productType: "Raw Material",
    });
    expect(products).toEqual([
      {
        name: "Glycerin",
        product_type: "Raw Material",
        code: null,
        normalized_code: null,
        cas_number: "56-81-5",
        synonyms: ["Glycerol", "Glycerine"],
        normalized_name: glycerin.normalizedName,
        normalized_synonyms: glycerin.normalizedSynonyms,
      },
      {
        name: "Sodium Lauryl Sulfate",
        product_type: "Raw Material",
        code: "SLS-100",
        normalized_code: sls.normalizedCode,
        cas_number: "151-21-3",
        synonyms: ["SLS", "Sodium Dodecyl Sulfate"],
        normalized_name: sls.normalizedName,
        normalized_synonyms: sls.normalizedSynonyms,
      },
    ]);
    expect(sls.normalizedCode).toBe("sls-100");

    // Read back through Prisma as the API does: 'Raw Material' is its RawMaterial.
    const buyerProduct = await database.prisma.buyerProduct.findUniqueOrThrow({
      where: { id: "00000000-0000-4000-8000-000000005001" },
      include: { resourceValues: { orderBy: { position: "asc" } } },
    });
    expect(buyerProduct).toMatchObject({
      buyerId: BUYER,
      rawMaterialName: "Glycerine USP",
      measurementUnit: "kg",
      productType: "RawMaterial",
      containerType: "IBC",
      annualUsage: 12000,
      priorityProduct: true,
      documentTypes: ["sds", "batch_coa"],
      resourceValues: [{ position: 0, provider: "erp", value: "1b9d6bcd-bbfd-4b2d-9b5d-ab8dfbbd4bed" }],
    });

    const approvals = await sql<Record<string, unknown>>(
      "SELECT id, buyer_id, supplier_id, approval_status::text FROM buyer_product_approvals ORDER BY id",
    );
    expect(approvals).toEqual([
      {
        id: "00000000-0000-4000-8000-000000006001",
        buyer_id: BUYER,
        supplier_id: "00000000-0000-4000-8000-000000002001",
        approval_status: "approved",
      },
      {
        id: "00000000-0000-4000-8000-000000006002",
        buyer_id: BUYER,
        supplier_id: null,
        approval_status: "unstarted",
      },
    ]);

    expect(await sql("SELECT taggable_type::text, taggable_id, tag_id, buyer_id FROM taggings")).toEqual([
      {
        taggable_type: "BuyerProduct",
        taggable_id: "00000000-0000-4000-8000-000000005001",
        tag_id: "00000000-0000-4000-8000-000000003101",
        buyer_id: BUYER,
      },
    ]);
    expect(await sql("SELECT buyer_id, relationship FROM supplier_connections")).toEqual([
      { buyer_id: BUYER, relationship: "approved_supplier" },
    ]);

    // The key is stored like one made by `keys create`: its hash and visible prefix, never the key.
    expect(await sql("SELECT buyer_id, prefix, hash, revoked_at FROM api_keys")).toEqual([
      { buyer_id: BUYER, prefix: "bpk_example_", hash: hashApiKey(EXAMPLE_KEY), revoked_at: null },
    ]);
    expect(JSON.stringify(await snapshot())).not.toContain(EXAMPLE_KEY);
  });

  it("changes nothing when the same file is imported again, not even updated_at", async () => {
    const before = await snapshot();
    const counts = expectImported(await importFile(database, EXAMPLE));
    expect(counts.every((count) => count.inserted === 0 && count.updated === 0 && !count.deleted)).toBe(true);
    expect(await snapshot()).toEqual(before);
  });

  it("updates changed records by id and replaces their resource values", async () => {
    const file = example();
    const [first] = file.orders;
    if (!first) throw new Error("example has no orders");
    first.order_status = "order_confirmed";
    first.updated_at = "2025-02-02T00:00:00.000Z";
    first.resource_values = [
      { provider: "erp", value: "a" },
      { provider: "wms", value: "b" },
    ];
    expectImported(await importData(database, file));
    first.resource_values = [{ provider: "wms", value: "c" }];
    const counts = expectImported(await importData(database, file));

    expect(counts.find((count) => count.kind === "order resource values")).toMatchObject({
      updated: 1,
      deleted: 1,
    });
    expect(
      await sql("SELECT position, provider, value FROM order_resource_values WHERE order_id = $1", [
        first.id,
      ]),
    ).toEqual([{ position: 0, provider: "wms", value: "c" }]);
    const [order] = await sql<{ order_status: string; updated_at: Date }>(
      "SELECT order_status::text, updated_at FROM orders WHERE id = $1",
      [first.id],
    );
    expect(order).toEqual({
      order_status: "order_confirmed",
      updated_at: new Date("2025-02-02T00:00:00.000Z"),
    });
    expect((await rowCounts()).orders).toBe(2);
  });

  it("writes nothing from a broken file and names every bad value by its JSON path", async () => {
    const before = await snapshot();
    const file = example();
    file.buyers.push({ id: "00000000-0000-4000-8000-000000001002", name: "Valid New Buyer", api_keys: [] });
    const [firstOrder, secondOrder] = file.orders;
    if (!firstOrder || !secondOrder || !file.buyers[0]) throw new Error("example has changed");
    secondOrder.order_status = "lost_in_space";
    delete file.buyers[0].name;
    firstOrder.delivery_site_id = "00000000-0000-4000-8000-00000000dead";
    file.surprise = [];

    const problems = expectRejected(await importData(database, file));

    expect(problems.map((problem) => problem.split(":")[0]).sort()).toEqual(
      ["buyers[0].name", "orders[0].delivery_site_id", "orders[1].order_status", "surprise"].sort(),
    );
    expect(problems).toContain("buyers[0].name: is required");
    expect(problems.find((problem) => problem.startsWith("orders[1].order_status"))).toMatch(
      /must be one of quote_selected, order_placed/,
    );
    expect(problems.find((problem) => problem.startsWith("orders[0].delivery_site_id"))).toMatch(
      /no delivery site 00000000-0000-4000-8000-00000000dead in the file or the database/,
    );
    expect(await snapshot()).toEqual(before);
  });

  it("resolves references against the database and refuses records of another buyer", async () => {
    const otherBuyer = "00000000-0000-4000-8000-00000000b002";
    const file = {
      version: 1,
      buyers: [{ id: otherBuyer, name: "Other Buyer" }],
      tag_groups: [{ id: "00000000-0000-4000-8000-00000000b301", buyer_id: otherBuyer, name: "Mine" }],
      tags: [
        {
          id: "00000000-0000-4000-8000-00000000b311",
          buyer_id: otherBuyer,
          tag_group_id: "00000000-0000-4000-8000-00000000b301",
          name: "Mine",
          category: "product",
        },
      ],
      delivery_sites: [
        {
          id: "00000000-0000-4000-8000-00000000b701",
          buyer_id: otherBuyer,
          site_name: "Other Site",
          address: {
            street: "1 St",
            city: "City",
            state: "ST",
            postcode: "1000",
            country: "AU",
            full_address: "1 St",
          },
        },
      ],
      orders: [
        {
          ...example().orders[1],
          id: "00000000-0000-4000-8000-00000000b801",
          buyer_id: otherBuyer,
          delivery_site_id: "00000000-0000-4000-8000-00000000b701",
        },
      ],
      taggings: [
        // The stored order of the example's buyer, tagged with this buyer's tag.
        {
          taggable_id: "00000000-0000-4000-8000-000000008001",
          tag_id: "00000000-0000-4000-8000-00000000b311",
        },
        {
          taggable_id: "00000000-0000-4000-8000-00000000b801",
          tag_id: "00000000-0000-4000-8000-00000000b311",
        },
        {
          taggable_id: "00000000-0000-4000-8000-00000000ffff",
          tag_id: "00000000-0000-4000-8000-00000000b311",
        },
      ],
    };

    const problems = expectRejected(await importData(database, file));

    expect(problems).toEqual([
      "orders[0].buyer_product_approval_id: buyer product approval 00000000-0000-4000-8000-000000006001 belongs to another buyer",
      "taggings[0].taggable_id: Order 00000000-0000-4000-8000-000000008001 belongs to another buyer than the tag",
      "taggings[2].taggable_id: no buyer product, order, buyer product approval or supplier user 00000000-0000-4000-8000-00000000ffff in the file or the database",
    ]);

    // Tagging the buyer's own stored order is accepted, and its type is looked up in the database.
    const own = {
      version: 1,
      taggings: [
        {
          taggable_id: "00000000-0000-4000-8000-000000008002",
          tag_id: "00000000-0000-4000-8000-000000003102",
        },
      ],
    };
    expectImported(await importData(database, own));
    expect(
      await sql("SELECT taggable_type::text, buyer_id FROM taggings WHERE taggable_id = $1", [
        "00000000-0000-4000-8000-000000008002",
      ]),
    ).toEqual([{ taggable_type: "Order", buyer_id: BUYER }]);
  });

  it("refuses a file whose version is not 1 or which is not JSON", async () => {
    expect(expectRejected(await importData(database, { ...example(), version: 2 }))).toEqual([
      "version: must be 1",
    ]);
    expect(expectRejected(await importData(database, []))).toEqual(["the file must hold one JSON object"]);
  });
});
