// npm run bench:match: auto-match latency over a 100,000-product catalogue in
// PostgreSQL, per rule, and the plans PostgreSQL uses for each rule's statement.
// Creates a scratch database and drops it at the end.
//   BENCH_DATABASE_URL  server to use (default postgres://postgres@127.0.0.1:5432/postgres)
//   BENCH_PRODUCTS      catalogue size (default 100000)
//   BENCH_SAMPLES       timed matches per case (default 300)

import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { poolOptions } from "../src/config/database-options.js";
import { DEFAULT_CONFIG } from "../src/config.js";
import { type Database, openDatabase } from "../src/db/database.js";
import { parseDatabaseUrl } from "../src/db/database-url.js";
import { Prisma } from "../src/db/generated/prisma/client.js";
import type { ProductType } from "../src/db/generated/prisma/enums.js";
import { migrateDatabase } from "../src/db/migrations.js";
import { contractSpelling } from "../src/domain/contract-vocabulary.js";
import { type MatchKeys, matchKeys, type ProductDescription } from "../src/domain/match-rules.js";
import { importData } from "../src/import/import.js";
import { matchOrCreateProduct } from "../src/services/auto-match.js";
import { candidatesQuery } from "../src/services/match-rules.js";
import {
  type ContractProductType,
  type GeneratedProduct,
  generateCatalogue,
  seededRandom,
} from "../tools/bench-catalogue.js";

const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const PRODUCTS = Number(process.env.BENCH_PRODUCTS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const TARGET_P95_MS = 20;

const PRISMA_TYPE: Record<ContractProductType, ProductType> = {
  Dye: "Dye",
  Fragrance: "Fragrance",
  Other: "Other",
  Packaging: "Packaging",
  "Raw Material": "RawMaterial",
};

type CaseName =
  | "cas_number"
  | "code"
  | "name"
  | "synonym"
  | "similar_name"
  | "none: new name"
  | "none: near miss refused by the guard"
  | "baseline: a transaction with SELECT 1";

interface Sample {
  case: CaseName;
  description: ProductDescription;
}

class Rollback extends Error {}

async function run(db: Database): Promise<void> {
  const version = await db.prisma.$queryRaw<{ server_version: string }[]>`SHOW server_version`;
  log(`PostgreSQL ${version[0]?.server_version}; scratch database ${scratch}`);

  let started = performance.now();
  const catalogue = generateCatalogue(PRODUCTS);
  const outcome = await importData(db, { version: 1, products: catalogue });
  if (!outcome.ok)
    throw new Error(`catalogue import failed: ${JSON.stringify(outcome.problems.slice(0, 3))}`);
  await db.prisma.$executeRawUnsafe("VACUUM ANALYZE products");
  log(`loaded ${catalogue.length} catalogue products through the import in ${seconds(started)}`);
  await printSizes(db);

  const samples = buildSamples(catalogue);
  // Warm the caches and the connection, as a running server's are.
  for (const sample of samples.filter((s) => !s.case.startsWith("baseline")).slice(0, 100)) {
    await timeMatch(db, sample.description);
  }

  started = performance.now();
  const timings = new Map<CaseName, number[]>();
  const mismatches: string[] = [];
  for (const sample of samples) {
    if (sample.case.startsWith("baseline")) {
      const list = timings.get(sample.case) ?? [];
      list.push(await timeBaseline(db));
      timings.set(sample.case, list);
      continue;
    }
    const { ms, strategy } = await timeMatch(db, sample.description);
    const list = timings.get(sample.case) ?? [];
    list.push(ms);
    timings.set(sample.case, list);
    const expected: string = sample.case.startsWith("none") ? "none" : sample.case;
    if (strategy !== expected)
      mismatches.push(`${sample.case} → ${strategy}: "${sample.description.rawMaterialName}"`);
  }
  log(
    `\n${samples.length} matches in ${seconds(started)}, each in its own transaction (rolled back), as POST /buyer_products runs it`,
  );
  printLatencies(timings);
  if (mismatches.length > 0) {
    log(`\n${mismatches.length} samples matched by another rule than their case (timed under their case):`);
    for (const line of mismatches.slice(0, 10)) log(`  ${line}`);
  }
  await printPlans(db, samples, catalogue);
}

async function timeMatch(
  db: Database,
  description: ProductDescription,
): Promise<{ ms: number; strategy: string }> {
  let strategy = "";
  const started = performance.now();
  try {
    await db.prisma.$transaction(async (tx) => {
      strategy = (await matchOrCreateProduct(tx, description, randomUUID())).strategy;
      // Nothing is kept, so every sample sees the same catalogue.
      throw new Rollback();
    });
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return { ms: performance.now() - started, strategy };
}

/** The floor under every number above: what one round trip in a transaction costs on this machine now. */
async function timeBaseline(db: Database): Promise<number> {
  const started = performance.now();
  await db.prisma.$transaction(async (tx) => tx.$queryRaw`SELECT 1`);
  return performance.now() - started;
}

function buildSamples(catalogue: GeneratedProduct[]): Sample[] {
  const random = seededRandom(7);
  const any = (filter: (product: GeneratedProduct) => boolean): GeneratedProduct => {
    for (;;) {
      const product = catalogue[Math.floor(random() * catalogue.length)];
      if (product && filter(product)) return product;
    }
  };
  const type = (product: GeneratedProduct) => PRISMA_TYPE[product.product_type];
  const samples: Sample[] = [];
  const add = (name: CaseName, make: () => ProductDescription) => {
    for (let i = 0; i < SAMPLES; i += 1) samples.push({ case: name, description: make() });
  };
  add("cas_number", () => {
    const product = any((p) => p.cas_number !== null);
    return {
      rawMaterialName: "Supplier material",
      rawMaterialCode: product.cas_number,
      productType: type(product),
    };
  });
  add("code", () => {
    const product = any((p) => p.code !== null);
    return {
      rawMaterialName: "Supplier material",
      rawMaterialCode: product.code?.toLowerCase(),
      productType: type(product),
    };
  });
  add("name", () => {
    const product = any((p) => p.product_type !== "Packaging");
    return { rawMaterialName: `${product.name.toUpperCase()} USP`, productType: type(product) };
  });
  add("synonym", () => {
    const product = any((p) => p.synonyms.length > 0);
    return { rawMaterialName: product.synonyms[0] ?? "", productType: type(product) };
  });
  add("similar_name", () => {
    // A plural "s" on the last long word: the typo the guard accepts.
    const product = any((p) => /[a-z]{5,}(?= |$)/i.test(p.name) && p.product_type !== "Packaging");
    const words = product.name.split(" ");
    const last = words.findLastIndex((word) => /^[a-z]{5,}$/i.test(word) && !/s$/i.test(word));
    if (last >= 0) words[last] = `${words[last]}s`;
    return { rawMaterialName: words.join(" "), productType: type(product) };
  });
  add("none: new name", () => ({
    rawMaterialName: `Qx${Math.floor(random() * 1e9).toString(36)} Novel Material`,
    productType: "RawMaterial",
  }));
  add("none: near miss refused by the guard", () => {
    // Another number in a name close to existing ones: many trigram candidates, all vetoed.
    const product = any((p) => /^PEG-\d+ /.test(p.name));
    return {
      rawMaterialName: product.name.replace(/^PEG-(\d+)/, (_m, n: string) => `PEG-${Number(n) + 1000}`),
      productType: type(product),
    };
  });
  add("baseline: a transaction with SELECT 1", () => ({ rawMaterialName: "", productType: "RawMaterial" }));
  // Interleaved, so that a burst of load elsewhere on the machine hits every case alike.
  return samples
    .map((sample) => ({ sample, order: random() }))
    .sort((a, b) => a.order - b.order)
    .map(({ sample }) => sample);
}

const CASE_ORDER: CaseName[] = [
  "cas_number",
  "code",
  "name",
  "synonym",
  "similar_name",
  "none: new name",
  "none: near miss refused by the guard",
  "baseline: a transaction with SELECT 1",
];

function caseOrder(name: CaseName): number {
  return CASE_ORDER.indexOf(name);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function printLatencies(timings: Map<CaseName, number[]>): void {
  log("\ncase                                    n    p50 ms   p95 ms   p99 ms   max ms");
  let worstP95 = 0;
  for (const [name, values] of [...timings].sort(([a], [b]) => caseOrder(a) - caseOrder(b))) {
    const sorted = [...values].sort((a, b) => a - b);
    const p95 = percentile(sorted, 95);
    if (!name.startsWith("baseline")) worstP95 = Math.max(worstP95, p95);
    log(
      `${name.padEnd(38)} ${String(values.length).padStart(4)} ${fmt(percentile(sorted, 50))} ${fmt(p95)} ${fmt(percentile(sorted, 99))} ${fmt(sorted.at(-1) ?? Number.NaN)}`,
    );
  }
  log(
    `\nworst p95 ${worstP95.toFixed(2)} ms: ${worstP95 < TARGET_P95_MS ? "within" : "OVER"} the ${TARGET_P95_MS} ms target`,
  );
}

async function printPlans(db: Database, samples: Sample[], catalogue: GeneratedProduct[]): Promise<void> {
  const keysOf = (name: CaseName): MatchKeys => {
    const sample = samples.find((candidate) => candidate.case === name);
    if (!sample) throw new Error(`no sample for ${name}`);
    return matchKeys(sample.description);
  };
  // A description that gives every rule something to look up: a CAS number, a code and a name.
  const full = catalogue.find((product) => product.cas_number && product.code && product.synonyms.length > 0);
  if (!full) throw new Error("the catalogue has no product with a CAS number, a code and synonyms");
  const everything = matchKeys({
    rawMaterialName: `${full.synonyms[0]} ${full.cas_number}`,
    rawMaterialCode: full.code,
    productType: PRISMA_TYPE[full.product_type],
  });
  const plans: [string, Prisma.Sql | null][] = [
    [
      "all five rules at once: CAS number (btree products_cas_number_idx), code (btree products_normalized_code_idx), " +
        "name (btree products_product_type_normalized_name_idx), synonym (GIN products_normalized_synonyms_idx), " +
        "similar name (btree products_similar_name_key_idx)",
      candidatesQuery(everything, 1),
    ],
    ["a similar name (no CAS number, no code)", candidatesQuery(keysOf("similar_name"), 1)],
    [
      "a near miss: many names with trigram similarity ≥ 0.8, none the guard could accept",
      candidatesQuery(keysOf("none: near miss refused by the guard"), 1),
    ],
    [
      "for comparison, rule 5 through the GIN trigram index (products_normalized_name_trgm_idx) for that near miss, as it ran before",
      ginSimilarName(keysOf("none: near miss refused by the guard")),
    ],
  ];
  for (const [title, query] of plans) {
    if (!query) continue;
    const rows = await db.prisma.$transaction(async (tx) => {
      // Only the GIN comparison's `%` reads it; the matcher's own statement does not.
      await tx.$queryRaw`SELECT set_config('pg_trgm.similarity_threshold', '0.8', true)`;
      return tx.$queryRaw<{ "QUERY PLAN": string }[]>(Prisma.sql`EXPLAIN (ANALYZE, BUFFERS) ${query}`);
    });
    log(`\n── ${title}`);
    for (const row of rows) log(`   ${row["QUERY PLAN"]}`);
  }
}

/** Rule 5 as it was: `%` on the GIN trigram index at threshold 0.8, every similar name handed to the guard. */
function ginSimilarName(keys: MatchKeys): Prisma.Sql {
  return Prisma.sql`
    SELECT id::text AS id, normalized_name, similarity(normalized_name, ${keys.normalizedName})::float8 AS score
    FROM products
    WHERE product_type = ${contractSpelling(keys.productType)}::"ProductType"
      AND normalized_name % ${keys.normalizedName}
      AND normalized_name <> ${keys.normalizedName}
    ORDER BY score DESC, created_at ASC, id ASC
    LIMIT 20`;
}

async function printSizes(db: Database): Promise<void> {
  const rows = await db.prisma.$queryRaw<{ name: string; size: string }[]>`
    SELECT c.relname AS name, pg_size_pretty(pg_relation_size(c.oid)) AS size
    FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid
    WHERE i.indrelid = 'products'::regclass ORDER BY c.relname`;
  log(`indexes on products: ${rows.map((row) => `${row.name} ${row.size}`).join(", ")}`);
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({
    connectionString: target.kind === "postgres" ? target.connectionString : "",
  });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

function fmt(ms: number): string {
  return ms.toFixed(2).padStart(8);
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

const target = parseDatabaseUrl(ADMIN_URL);
const scratch = `bpa_bench_match_${process.pid}_${randomBytes(3).toString("hex")}`;

// Last, so that every constant above is initialised before it runs.
if (target.kind !== "postgres") throw new Error("bench:match needs PostgreSQL (BENCH_DATABASE_URL)");
const scratchUrl = new URL(target.connectionString);
scratchUrl.pathname = `/${scratch}`;

await adminQuery(`CREATE DATABASE "${scratch}"`);
let database: Database | undefined;
try {
  database = await openDatabase(parseDatabaseUrl(scratchUrl.toString()), {
    ...poolOptions(DEFAULT_CONFIG),
    poolSize: 2,
  });
  await migrateDatabase(database);
  await run(database);
} finally {
  await database?.close();
  await adminQuery(`DROP DATABASE IF EXISTS "${scratch}" WITH (FORCE)`);
}
