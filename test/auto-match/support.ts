// Shared by the auto-match tests: a catalogue loaded through the import (as an
// operator loads one), and the two ways a buyer meets auto-match: creating a
// buyer product over REST, and the GraphQL dry run.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import type { App } from "../../src/app.js";
import type { Database } from "../../src/db/database.js";
import { importData } from "../../src/import/import.js";
import { callApi } from "../support/test-app.js";

export type ContractProductType = "Dye" | "Fragrance" | "Other" | "Packaging" | "Raw Material";

export interface CatalogueProduct {
  name: string;
  productType?: ContractProductType;
  code?: string;
  casNumber?: string;
  synonyms?: string[];
  createdAt?: string;
}

/** Imports catalogue products (Raw Material unless said); returns their ids in the given order. */
export async function importCatalogue(database: Database, products: CatalogueProduct[]): Promise<string[]> {
  const rows = products.map((product) => ({
    id: randomUUID(),
    name: product.name,
    product_type: product.productType ?? "Raw Material",
    code: product.code ?? null,
    cas_number: product.casNumber ?? null,
    synonyms: product.synonyms ?? [],
    ...(product.createdAt ? { created_at: product.createdAt, updated_at: product.createdAt } : {}),
  }));
  const outcome = await importData(database, { version: 1, products: rows });
  expect(outcome).toMatchObject({ ok: true });
  return rows.map((row) => row.id);
}

export interface AutoMatch {
  matched: boolean;
  strategy: string;
  score: number;
}

export interface Created {
  status: number;
  productId: string;
  autoMatch: AutoMatch;
  body: Record<string, unknown>;
}

/** POST /buyer_products with a Raw Material in kg unless `fields` say otherwise. */
export async function createBuyerProduct(
  app: App,
  key: string,
  fields: Record<string, unknown>,
): Promise<Created> {
  const response = await callApi(app, "POST", "/buyer_products", {
    key,
    body: { measurement_unit: "kg", product_type: "Raw Material", ...fields },
  });
  const body = (response.body ?? {}) as Record<string, unknown>;
  return {
    status: response.status,
    productId: String(body.product_id),
    autoMatch: body.auto_match as AutoMatch,
    body,
  };
}

export const NEW_PRODUCT: AutoMatch = { matched: false, strategy: "none", score: 0 };
export const exactly = (strategy: string): AutoMatch => ({ matched: true, strategy, score: 1 });

export interface GraphQLResponse<Data> {
  status: number;
  data?: Data;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

export async function graphql<Data>(
  app: App,
  key: string | null,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<GraphQLResponse<Data>> {
  const response = await app.fetch("http://localhost/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { "x-api-key": key } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as Omit<GraphQLResponse<Data>, "status">;
  return { status: response.status, ...body };
}

export interface Candidate {
  product: { id: string; name: string; casNumber: string | null; code: string | null; productType: string };
  strategy: string;
  score: number;
}

export const MATCH_PRODUCT = `query Match($name: String!, $code: String, $type: ProductType!) {
  matchProduct(rawMaterialName: $name, rawMaterialCode: $code, productType: $type) {
    product { id name casNumber code productType }
    strategy
    score
  }
}`;

/** The dry run's candidates; fails the test on a GraphQL error. */
export async function matchProduct(
  app: App,
  key: string,
  name: string,
  type = "RAW_MATERIAL",
  code: string | null = null,
): Promise<Candidate[]> {
  const response = await graphql<{ matchProduct: Candidate[] }>(app, key, MATCH_PRODUCT, {
    name,
    code,
    type,
  });
  expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
  return response.data?.matchProduct ?? [];
}
