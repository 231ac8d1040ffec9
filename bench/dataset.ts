import { randomUUID } from "node:crypto";
import pg from "pg";
import { generateApiKey, hashApiKey, visibleKeyPrefix } from "../src/auth/api-key-format.js";
import { migrateDatabase } from "../src/db/migrations.js";
import { postgresConnection } from "../src/db/sql-connection.js";

/** The shape of the generated data; the defaults are what the issue asks for. */
export const DATASET = {
  buyers: 50,
  suppliers: 200,
  /** Suppliers each buyer is connected to. */
  connectionsPerBuyer: 20,
  sitesPerBuyer: 3,
  products: 10_000,
  buyerProducts: 1_000,
  /** Buyer products of the measured buyer (buyer 1); approvals come two per buyer product. */
  measuredBuyerProducts: 250,
  approvals: 2_000,
  orders: 200_000,
  measuredBuyerOrders: 10_000,
  /** Orders in the table after `--scale`. */
  scaledOrders: 1_000_000,
} as const;

// Every created_at lies in the two years before this instant; the filtered
// scenario asks for a six-month window inside them.
const NEWEST = "2026-01-01T00:00:00Z";
/** (g * STRIDE) mod PRIME is a permutation of the order numbers: distinct, well-mixed creation times. */
const STRIDE = 7919;
const PRIME = 1_000_003;
const SECONDS_PER_STEP = 63;

export interface Dataset {
  /** The measured buyer (10,000 orders) and its key. */
  buyerId: string;
  apiKey: string;
  /** A second buyer with a key, for the `--scale` comparison. */
  referenceBuyerId: string;
  referenceApiKey: string;
  /** The measured buyer's order ids, for the PATCH scenario to cycle through. */
  orderIds: string[];
  counts: Record<string, number>;
}

/**
 * The tables as a production database holds them after a load: statistics
 * gathered, and vacuumed, as autovacuum leaves a table after many inserts.
 * Vacuuming sets the visibility map, without which a count (`totalCount`)
 * or an index-only scan visits every row's heap page, on every server alike;
 * the bench's cluster may run without autovacuum.
 */
const VACUUMED = "VACUUM (ANALYZE)";

const uuidOf = (kind: string, n: number | string) => `md5('${kind}:' || (${n}))::uuid`;

export function buyerUuidSql(n: number): string {
  return uuidOf("buyer", n);
}

async function withClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Drops and creates the scratch database; refuses names that do not look like a scratch database. */
export async function recreateDatabase(adminUrl: string, name: string): Promise<void> {
  if (!/^bpa_bench\w*$/.test(name))
    throw new Error(`refusing to drop '${name}': use a name starting bpa_bench`);
  await withClient(adminUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
}

export async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  if (!/^bpa_bench\w*$/.test(name)) throw new Error(`refusing to drop '${name}'`);
  await withClient(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

export async function migrate(databaseUrl: string): Promise<void> {
  await migrateDatabase({ connect: () => postgresConnection(databaseUrl) });
}

/** Disables (or enables again) every change log trigger, for measuring writes without the log. */
export async function setChangeLog(databaseUrl: string, enabled: boolean): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ statement: string }>(
      `SELECT format('ALTER TABLE %s ${enabled ? "ENABLE" : "DISABLE"} TRIGGER %I', tgrelid::regclass, tgname) AS statement
       FROM pg_trigger WHERE NOT tgisinternal AND tgname LIKE '%change_log%'`,
    );
    for (const { statement } of rows) await client.query(statement);
  });
}

/**
 * A session for loading generated rows. Losing the last commits of a crash is
 * fine for a scratch database, and loading goes faster without waiting for
 * each commit to reach the disk. Triggers stay off
 * (replica role): the rows stand for data written long before the run, so they
 * leave no change log behind, where the event materialiser would otherwise
 * spend the whole run rendering hundreds of thousands of events.
 */
async function bulkLoadSession(client: pg.Client): Promise<void> {
  await client.query("SET synchronous_commit = off");
  await client.query("SET session_replication_role = replica");
}

/**
 * Fills the database with set-based statements (INSERT ... SELECT over
 * generate_series): ids are md5 of a kind and a number, so the same run
 * always produces the same rows, apart from the API keys.
 */
export async function seedDataset(databaseUrl: string): Promise<Dataset> {
  return withClient(databaseUrl, async (client) => {
    await bulkLoadSession(client);
    const d = DATASET;
    const otherBuyers = d.buyers - 1;
    // Buyer number of buyer product number `k`: the measured buyer first, the others round robin.
    const buyerOfProduct = (k: string) =>
      `CASE WHEN ${k} <= ${d.measuredBuyerProducts} THEN 1 ELSE 2 + ${k} % ${otherBuyers} END`;
    const statements = [
      `INSERT INTO buyers (id, name) SELECT ${uuidOf("buyer", "b")}, 'Bench Buyer ' || b FROM generate_series(1, ${d.buyers}) b`,
      `INSERT INTO suppliers (id, name) SELECT ${uuidOf("supplier", "s")}, 'Supplier ' || s FROM generate_series(1, ${d.suppliers}) s`,
      `INSERT INTO supplier_connections (buyer_id, supplier_id, relationship)
       SELECT ${uuidOf("buyer", "b")}, ${uuidOf("supplier", `((b * 7 + k) % ${d.suppliers}) + 1`)},
              (ARRAY['approved_supplier', 'preferred_supplier', 'trial'])[1 + k % 3]
       FROM generate_series(1, ${d.buyers}) b, generate_series(0, ${d.connectionsPerBuyer - 1}) k`,
      `INSERT INTO delivery_sites (id, buyer_id, site_name, address_street, address_city, address_state,
                                   address_postcode, address_country, address_full_address)
       SELECT ${uuidOf("site", "b || ':' || k")}, ${uuidOf("buyer", "b")}, 'Site ' || k || ' of buyer ' || b,
              k || ' Factory Rd', 'Dandenong', 'VIC', '3175', 'AU', k || ' Factory Rd, Dandenong VIC 3175, AU'
       FROM generate_series(1, ${d.buyers}) b, generate_series(0, ${d.sitesPerBuyer - 1}) k`,
      `INSERT INTO order_types (id, type_of) VALUES (${uuidOf("order-type", 0)}, 'local'), (${uuidOf("order-type", 1)}, 'overseas')`,
      // Letters from md5 make names that share few trigrams, as real product names do, so that
      // the similar-name rule of auto-match sees a realistic number of candidates.
      `INSERT INTO products (id, name, normalized_name, code, normalized_code, cas_number, synonyms,
                             normalized_synonyms, product_type)
       SELECT ${uuidOf("product", "p")}, n.name, lower(n.name), 'CAT-' || p, 'cat-' || p, NULL,
              ARRAY[n.name || ' Extra'], ARRAY[lower(n.name) || ' extra'],
              (ARRAY['Dye', 'Fragrance', 'Other', 'Packaging', 'Raw Material'])[1 + p % 5]::"ProductType"
       FROM generate_series(1, ${d.products}) p,
            LATERAL (SELECT initcap(translate(substr(md5('product:' || p), 1, 9), '0123456789', 'gklmnprstv'))
                            || ' ' || initcap(translate(substr(md5('product:' || p), 10, 7), '0123456789', 'gklmnprstv'))
                            AS name) n`,
      `INSERT INTO buyer_products (id, buyer_id, product_id, raw_material_name, measurement_unit, product_type,
                                   raw_material_code, annual_usage, typical_order_size, frequency, container_type,
                                   target_approvals, priority_product, active, document_types)
       SELECT ${uuidOf("buyer-product", "k")}, ${uuidOf("buyer", buyerOfProduct("k"))}, ${uuidOf("product", `1 + (k * 37) % ${d.products}`)},
              p.name || ' (buyer grade)', (ARRAY['kg', 'L', 'EA'])[1 + k % 3]::"MeasurementUnit", p.product_type,
              'RM-' || k, 1000 + k, 50 + k % 100, 'monthly', (ARRAY['Drum', 'IBC', 'Bag'])[1 + k % 3]::"ContainerType",
              2, k % 5 = 0, true, ARRAY['sds', 'tds']::"DocumentType"[]
       FROM generate_series(1, ${d.buyerProducts}) k
       JOIN products p ON p.id = ${uuidOf("product", `1 + (k * 37) % ${d.products}`)}`,
      `INSERT INTO buyer_product_approvals (id, buyer_id, buyer_product_id, supplier_id, approval_status, supplier_name,
                                            catalogue_parent_display_name, catalogue_parent_product_code, reference,
                                            created_at, updated_at)
       SELECT ${uuidOf("approval", "x.n")}, bp.buyer_id, bp.id, ${uuidOf("supplier", "s.s")},
              (ARRAY['preferred', 'purchased', 'approved', 'sample_requested', 'sample_approved', 'pending',
                     'unstarted', 'inactive', 'unapproved'])[1 + x.n % 9]::"ApprovalStatus",
              'Supplier ' || s.s, bp.raw_material_name || ' by supplier ' || s.s, 'SUP-' || x.n, 'APP-' || x.n,
              timestamptz '${NEWEST}' - x.n * interval '7 hours', timestamptz '${NEWEST}' - x.n * interval '6 hours'
       FROM (SELECT n, (n + 1) / 2 AS k FROM generate_series(1, ${d.approvals}) n) x
       JOIN buyer_products bp ON bp.id = ${uuidOf("buyer-product", "x.k")}
       -- One of the suppliers the buyer is connected to (see supplier_connections above).
       CROSS JOIN LATERAL (
         SELECT ((${buyerOfProduct("x.k")}) * 7 + x.n % ${d.connectionsPerBuyer}) % ${d.suppliers} + 1 AS s
       ) s`,
    ];
    for (const statement of statements) await client.query(statement);
    await insertOrders(
      client,
      1,
      d.orders,
      `CASE WHEN g <= ${d.measuredBuyerOrders} THEN 1 ELSE 2 + g % ${otherBuyers} END`,
    );

    const buyerId = await scalar(client, `SELECT ${buyerUuidSql(1)}::text`);
    const referenceBuyerId = await scalar(client, `SELECT ${buyerUuidSql(2)}::text`);
    const apiKey = await insertApiKey(client, buyerId, "bench");
    const referenceApiKey = await insertApiKey(client, referenceBuyerId, "bench reference");
    await client.query(VACUUMED);
    const orderIds = (
      await client.query<{ id: string }>(
        "SELECT id::text AS id FROM orders WHERE buyer_id = $1 ORDER BY id",
        [buyerId],
      )
    ).rows.map((row) => row.id);
    return {
      buyerId,
      apiKey,
      referenceBuyerId,
      referenceApiKey,
      orderIds,
      counts: await tableCounts(client),
    };
  });
}

/**
 * Orders number `from` to `to`, each owned by buyer number `buyerOf` (SQL over
 * `g`), under one of that buyer's approvals and its supplier, with 0–2
 * resource values. Approvals are numbered per buyer so that each order picks
 * one by a hash join rather than a scan.
 */
async function insertOrders(client: pg.Client, from: number, to: number, buyerOf: string): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query(`
      CREATE TEMP TABLE bench_approvals ON COMMIT DROP AS
      SELECT b.n, a.id, a.supplier_id, (row_number() OVER (PARTITION BY b.n ORDER BY a.id) - 1)::int AS idx
      FROM buyer_product_approvals a
      JOIN (SELECT n, ${uuidOf("buyer", "n")} AS id FROM generate_series(1, ${DATASET.buyers}) n) b
        ON b.id = a.buyer_id`);
    await client.query(`
      CREATE TEMP TABLE bench_approvals_per_buyer ON COMMIT DROP AS
      SELECT n, count(*)::int AS cnt FROM bench_approvals GROUP BY n`);
    await client.query(`
      INSERT INTO orders (id, buyer_id, supplier_id, buyer_product_approval_id, delivery_site_id, order_type_id,
                          price_type, quantity, price_per_uom, tax_amount, tax_percentage, price_total, currency,
                          order_reference, order_status, purchase_order_reference, supplier_order_reference,
                          tracking_type, placed_at, created_at, updated_at)
      SELECT ${uuidOf("order", "o.g")}, ${uuidOf("buyer", "o.n")}, a.supplier_id, a.id,
             ${uuidOf("site", `o.n || ':' || (o.g % ${DATASET.sitesPerBuyer})`)}, ${uuidOf("order-type", "o.g % 2")},
             (ARRAY['ex_stock', 'indent', 'hot_deal', 'excess_stock', 'full_container'])[1 + o.g % 5]::"PriceType",
             o.quantity, o.price, round(o.quantity * o.price * 0.1, 6), 10, round(o.quantity * o.price * 1.1, 6),
             (ARRAY['AUD', 'USD', 'EUR'])[1 + o.g % 3], 'ORD-' || lpad(o.g::text, 7, '0'),
             o.status::"OrderStatus", 'PO-' || o.g,
             CASE WHEN o.g % 3 = 0 THEN NULL ELSE 'SO-' || o.g END,
             (ARRAY['courier', 'freight', NULL])[1 + o.g % 3],
             CASE WHEN o.status = 'quote_selected' THEN NULL ELSE o.created_at + interval '2 hours' END,
             o.created_at, o.created_at + interval '1 day'
      FROM (
        SELECT g, n, ((1 + g % 40) * 2.5)::numeric AS quantity, round(5 + (g % 997) / 10.0, 2) AS price,
               (ARRAY['quote_selected', 'order_placed', 'order_confirmed', 'in_transit', 'in_warehouse',
                      'shipped', 'in_port', 'delivered'])[1 + g % 8] AS status,
               timestamptz '${NEWEST}' - ((g::bigint * ${STRIDE}) % ${PRIME}) * interval '${SECONDS_PER_STEP} seconds' AS created_at
        FROM (SELECT g, ${buyerOf} AS n FROM generate_series(${from}, ${to}) g) numbered
      ) o
      JOIN bench_approvals_per_buyer c ON c.n = o.n
      JOIN bench_approvals a ON a.n = o.n AND a.idx = o.g % c.cnt`);
    await client.query(`
      INSERT INTO order_resource_values (order_id, position, provider, value)
      SELECT ${uuidOf("order", "g")}, p, (ARRAY['sap', 'netsuite'])[p + 1], 'ERP-' || g || '-' || p
      FROM generate_series(${from}, ${to}) g, generate_series(0, 1) p
      WHERE p < g % 3`);
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

/** A new API key of `buyerId`, returned in full. */
export async function insertApiKey(client: pg.Client, buyerId: string, name: string): Promise<string> {
  const key = generateApiKey();
  await client.query("INSERT INTO api_keys (id, buyer_id, name, prefix, hash) VALUES ($1, $2, $3, $4, $5)", [
    randomUUID(),
    buyerId,
    name,
    visibleKeyPrefix(key),
    hashApiKey(key),
  ]);
  return key;
}

async function scalar(client: pg.Client, sql: string, params: unknown[] = []): Promise<string> {
  const { rows } = await client.query<Record<string, unknown>>(sql, params);
  const value = rows[0] ? Object.values(rows[0])[0] : undefined;
  if (value === undefined || value === null) throw new Error(`no value from ${sql}`);
  return String(value);
}

const COUNTED_TABLES = [
  "buyers",
  "suppliers",
  "supplier_connections",
  "delivery_sites",
  "order_types",
  "products",
  "buyer_products",
  "buyer_product_approvals",
  "orders",
  "order_resource_values",
] as const;

async function tableCounts(client: pg.Client): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of COUNTED_TABLES) {
    counts[table] = Number(await scalar(client, `SELECT count(*) FROM ${table}`));
  }
  return counts;
}

export interface ScaleInfo {
  ordersInTable: number;
  measuredBuyerOrders: number;
  referenceBuyerOrders: number;
  seconds: number;
}

/**
 * `--scale`: grows the orders table to DATASET.scaledOrders. The reference
 * buyer (buyer 2) is topped up to exactly as many orders as the measured
 * buyer had, and the measured buyer gets all the rest, so that one run
 * compares a buyer with 10,000 orders and one with ~800,000 in the same table.
 */
export async function growForScale(databaseUrl: string, dataset: Dataset): Promise<ScaleInfo> {
  const started = performance.now();
  return withClient(databaseUrl, async (client) => {
    await bulkLoadSession(client);
    const count = async (buyerId?: string) =>
      Number(
        buyerId
          ? await scalar(client, "SELECT count(*) FROM orders WHERE buyer_id = $1", [buyerId])
          : await scalar(client, "SELECT count(*) FROM orders"),
      );
    const total = await count();
    const referenceTopUp = DATASET.measuredBuyerOrders - (await count(dataset.referenceBuyerId));
    const from = total + 1;
    const to = DATASET.scaledOrders;
    if (to >= from) {
      await insertOrders(client, from, to, `CASE WHEN g < ${from + referenceTopUp} THEN 2 ELSE 1 END`);
      await client.query(`${VACUUMED} orders`);
      await client.query(`${VACUUMED} order_resource_values`);
    }
    return {
      ordersInTable: await count(),
      measuredBuyerOrders: await count(dataset.buyerId),
      referenceBuyerOrders: await count(dataset.referenceBuyerId),
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
  });
}
