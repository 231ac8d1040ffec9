// What the database already holds that an import file (src/import) refers to but does not contain.
import type { SqlQuery } from "../db/sql-connection.js";

/** For each kind a record can refer to, its table and which column names the owning buyer (null: the kind has no owner). */
const OWNER_COLUMN = {
  buyers: { table: "buyers", owner: null },
  suppliers: { table: "suppliers", owner: null },
  supplier_users: { table: "supplier_users", owner: "created_by_buyer_id" },
  tag_groups: { table: "tag_groups", owner: "buyer_id" },
  tags: { table: "tags", owner: "buyer_id" },
  products: { table: "products", owner: null },
  buyer_products: { table: "buyer_products", owner: "buyer_id" },
  buyer_product_approvals: { table: "buyer_product_approvals", owner: "buyer_id" },
  delivery_sites: { table: "delivery_sites", owner: "buyer_id" },
  order_types: { table: "order_types", owner: null },
  orders: { table: "orders", owner: "buyer_id" },
} satisfies Record<string, { table: string; owner: string | null }>;

/** Every kind a record can refer to: each kind of the import format but taggings. */
export type LookupKind = keyof typeof OWNER_COLUMN;

/** id → owning buyer id (null when the kind or the record has none). */
export type ExistingRecords = { [K in LookupKind]: Map<string, string | null> };

export async function findExisting(sql: SqlQuery, wanted: { [K in LookupKind]: Set<string> }) {
  const existing = {} as ExistingRecords;
  for (const [kind, { table, owner }] of Object.entries(OWNER_COLUMN) as [
    LookupKind,
    { table: string; owner: string | null },
  ][]) {
    const ids = [...wanted[kind]];
    const found = new Map<string, string | null>();
    if (ids.length > 0) {
      const rows = await sql.query<{ id: string; owner: string | null }>(
        `SELECT id::text AS id, ${owner ? `${owner}::text` : "NULL::text"} AS owner FROM ${table} WHERE id = ANY($1::uuid[])`,
        [ids],
      );
      for (const row of rows) found.set(row.id, row.owner);
    }
    existing[kind] = found;
  }
  return existing;
}

/** hash → buyer id, for the api_keys of the file that are already stored. */
export async function findApiKeyOwners(sql: SqlQuery, hashes: string[]): Promise<Map<string, string>> {
  if (hashes.length === 0) return new Map();
  const rows = await sql.query<{ hash: string; buyer_id: string }>(
    "SELECT hash, buyer_id::text AS buyer_id FROM api_keys WHERE hash = ANY($1::text[])",
    [hashes],
  );
  return new Map(rows.map((row) => [row.hash, row.buyer_id]));
}

/** `${supplier_id} ${email_key}` → supplier user id, for the file's (supplier, email) pairs. */
export async function findSupplierUserEmails(
  sql: SqlQuery,
  pairs: { supplierId: string; emailKey: string }[],
): Promise<Map<string, string>> {
  if (pairs.length === 0) return new Map();
  const rows = await sql.query<{ id: string; supplier_id: string; contact_email_key: string }>(
    `SELECT u.id::text AS id, u.supplier_id::text AS supplier_id, u.contact_email_key
       FROM supplier_users u
       JOIN unnest($1::uuid[], $2::text[]) AS p(supplier_id, email_key)
         ON u.supplier_id = p.supplier_id AND u.contact_email_key = p.email_key`,
    [pairs.map((pair) => pair.supplierId), pairs.map((pair) => pair.emailKey)],
  );
  return new Map(rows.map((row) => [`${row.supplier_id} ${row.contact_email_key}`, row.id]));
}
