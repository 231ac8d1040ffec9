// docs/design/decisions.md, "Shared catalogue and privacy": buyer A's words for a
// product (its raw material name and code) never reach buyer B, whichever
// way B meets the catalogue product A's creation added: creating its own
// buyer product over REST, reading it back over GraphQL, the matchProduct dry
// run, or an order's nested product.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { createBuyerProduct, exactly, graphql, matchProduct, NEW_PRODUCT } from "./support.js";

/** Buyer A's private words: none of them may appear in anything buyer B receives. */
const A_SECRETS = ["Falcon", "ACME-SECRET-0042", "Kestrel", "ACME-SECRET-0043"];

function expectNoSecretOfA(received: unknown): void {
  const text = JSON.stringify(received).toLowerCase();
  for (const secret of A_SECRETS) expect(text, secret).not.toContain(secret.toLowerCase());
}

const BUYER_PRODUCT = `query($id: UUID!) {
  buyerProduct(id: $id) { id rawMaterialName rawMaterialCode product { id name code casNumber productType } }
}`;

describe("the shared catalogue between two buyers", () => {
  let harness: TestApp;
  let buyerA: SeededBuyer;
  let buyerB: SeededBuyer;
  /** Catalogue products A's creations added: one with a CAS number, one without. */
  let byCas: string;
  let byName: string;

  beforeAll(async () => {
    harness = await createTestApp();
    buyerA = await seedBuyer(harness.database, "Buyer A");
    buyerB = await seedBuyer(harness.database, "Buyer B");
    const first = await createBuyerProduct(harness.app, buyerA.apiKey, {
      raw_material_name: "Project Falcon niacinamide (98-92-0)",
      raw_material_code: "ACME-SECRET-0042",
    });
    const second = await createBuyerProduct(harness.app, buyerA.apiKey, {
      raw_material_name: "Kestrel Silicone Elastomer Blend",
      raw_material_code: "ACME-SECRET-0043",
    });
    expect([first.autoMatch, second.autoMatch]).toEqual([NEW_PRODUCT, NEW_PRODUCT]);
    byCas = first.productId;
    byName = second.productId;
  });
  afterAll(async () => {
    await harness?.close();
  });

  it("stores neither A's name nor A's code in the catalogue", async () => {
    const products = await harness.database.prisma.product.findMany({
      where: { id: { in: [byCas, byName] } },
    });
    for (const product of products) {
      expect(product).toMatchObject({ name: null, code: null, normalizedCode: null });
    }
    expect(products.find((product) => product.id === byCas)?.casNumber).toBe("98-92-0");
  });

  it("shows B, linked by CAS number, its own name and no code: in the REST response and over GraphQL", async () => {
    const created = await createBuyerProduct(harness.app, buyerB.apiKey, {
      raw_material_name: "Vitamin B3 98-92-0",
      raw_material_code: "B-VIT-3",
    });
    expect(created).toMatchObject({ productId: byCas, autoMatch: exactly("cas_number") });
    expectNoSecretOfA(created.body);

    const read = await graphql<{ buyerProduct: { product: Record<string, unknown> } }>(
      harness.app,
      buyerB.apiKey,
      BUYER_PRODUCT,
      { id: created.body.id },
    );
    expect(read.data?.buyerProduct.product).toEqual({
      id: byCas,
      name: "Vitamin B3 98-92-0",
      code: null,
      casNumber: "98-92-0",
      productType: "RAW_MATERIAL",
    });
    expectNoSecretOfA(read);
  });

  it("shows B, linked by a similar name, its own spelling", async () => {
    const created = await createBuyerProduct(harness.app, buyerB.apiKey, {
      raw_material_name: "KESTREL SILICONE ELASTOMER BLENDS",
    });
    expect(created).toMatchObject({
      productId: byName,
      autoMatch: { matched: true, strategy: "similar_name" },
    });
    const read = await graphql<{ buyerProduct: { product: { name: string; code: string | null } } }>(
      harness.app,
      buyerB.apiKey,
      BUYER_PRODUCT,
      { id: created.body.id },
    );
    // B typed these words itself; what B must not see is A's spelling or code.
    expect(read.data?.buyerProduct.product).toMatchObject({
      name: "KESTREL SILICONE ELASTOMER BLENDS",
      code: null,
    });
    expect(JSON.stringify(read)).not.toContain('Kestrel Silicone Elastomer Blend"');
    expect(JSON.stringify(read)).not.toContain("ACME-SECRET-0043");
  });

  it("never matches B by A's code, so B cannot discover it", async () => {
    for (const [name, code] of [
      ["First unrelated guess", "ACME-SECRET-0042"],
      ["Second unrelated guess", "acme-secret-0043"],
    ] as const) {
      const candidates = await matchProduct(harness.app, buyerB.apiKey, name, "RAW_MATERIAL", code);
      expect(candidates, code).toEqual([]);
      const created = await createBuyerProduct(harness.app, buyerB.apiKey, {
        raw_material_name: name,
        raw_material_code: code,
      });
      expect(created.autoMatch, code).toEqual(NEW_PRODUCT);
      expect([byCas, byName]).not.toContain(created.productId);
    }
  });

  it("answers B's dry run with B's own words", async () => {
    const [candidate] = await matchProduct(harness.app, buyerB.apiKey, "Nicotinamide (CAS 98-92-0)");
    expect(candidate).toEqual({
      product: {
        id: byCas,
        name: "Nicotinamide (CAS 98-92-0)",
        casNumber: "98-92-0",
        code: null,
        productType: "RAW_MATERIAL",
      },
      strategy: "cas_number",
      score: 1,
    });
    const [similar] = await matchProduct(harness.app, buyerB.apiKey, "kestrel silicone elastomer blends");
    expect(similar?.product).toMatchObject({
      id: byName,
      name: "kestrel silicone elastomer blends",
      code: null,
    });
  });

  it("shows B's orders of that product with B's own name", async () => {
    const created = await createBuyerProduct(harness.app, buyerB.apiKey, {
      raw_material_name: "Niacinamide USP (98-92-0)",
    });
    expect(created.productId).toBe(byCas);
    // B's seeded approval now approves this buyer product; an order under it.
    await harness.database.prisma.buyerProductApproval.update({
      where: { id: buyerB.approvalId },
      data: { buyerProductId: String(created.body.id) },
    });
    await seedOrders(harness.database, buyerB, [{ createdAt: new Date("2026-01-05T00:00:00.000Z") }]);

    const orders = await graphql<{
      orders: { edges: { node: { product: { id: string; name: string; code: string | null } } }[] };
    }>(
      harness.app,
      buyerB.apiKey,
      "{ orders { edges { node { product { id name code } buyerProduct { product { name code } } } } } }",
    );
    expect(orders.errors).toBeUndefined();
    expect(orders.data?.orders.edges.map((edge) => edge.node.product)).toEqual([
      { id: byCas, name: "Niacinamide USP (98-92-0)", code: null },
    ]);
    expectNoSecretOfA(orders);
    const listed = await callApi(harness.app, "GET", "/orders", { key: buyerB.apiKey });
    expect(listed.status).toBe(200);
    expectNoSecretOfA(listed.body);
  });

  it("shows A its own words for the products its creations added", async () => {
    const read = await graphql<{
      buyerProducts: { edges: { node: { product: { id: string; name: string } } }[] };
    }>(harness.app, buyerA.apiKey, "{ buyerProducts { edges { node { product { id name } } } } }");
    const names = new Map(
      read.data?.buyerProducts.edges.map((edge) => [edge.node.product.id, edge.node.product.name]),
    );
    expect(names.get(byCas)).toBe("Project Falcon niacinamide (98-92-0)");
    expect(names.get(byName)).toBe("Kestrel Silicone Elastomer Blend");
  });
});
