// The labelled auto-match evaluation (test/fixtures/auto-match-eval.json),
// shared by `npm run eval:match` and test/auto-match/evaluation.test.ts. The
// catalogue goes in through the import, as an operator's would; each case is
// then a dry run of the matcher (nothing is created), so cases are independent.
// Sequences are the exception: their steps really create products, in one
// transaction per sequence that is rolled back, so that a step sees what the
// earlier steps of its sequence created and nothing else.
import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "../src/db/database.js";
import type { ProductType } from "../src/db/generated/prisma/enums.js";
import { contractSpelling } from "../src/domain/contract-vocabulary.js";
import { type MatchStrategy, matchKeys, SIMILAR_NAME_THRESHOLD } from "../src/domain/match-rules.js";
import { importData } from "../src/import/import.js";
import { matchOrCreateProduct } from "../src/services/auto-match.js";
import { findCandidates } from "../src/services/match-rules.js";

export const EVALUATION_FILE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "../test/fixtures/auto-match-eval.json",
);

type ContractProductType = "Dye" | "Fragrance" | "Other" | "Packaging" | "Raw Material";

interface CatalogueEntry {
  key: string;
  name: string;
  productType: ContractProductType;
  code?: string;
  casNumber?: string;
  synonyms?: string[];
  createdAt?: string;
}

export interface EvaluationCase {
  name: string;
  code?: string;
  productType: ContractProductType;
  expect: { product: string | null; strategy?: MatchStrategy };
  note?: string;
  /** A true match the matcher is known not to make, and why. */
  known_miss?: string;
}

/** A step of a sequence; `expect.product` may also name a product an earlier step created. */
export interface EvaluationStep extends EvaluationCase {
  /** The label of the product this step creates, for later steps to expect. */
  creates?: string;
}

export interface EvaluationSequence {
  description: string;
  steps: EvaluationStep[];
}

export interface EvaluationFixture {
  catalogue: CatalogueEntry[];
  cases: EvaluationCase[];
  sequences?: EvaluationSequence[];
}

export interface CaseOutcome {
  case: EvaluationCase;
  /** The sequence the case is a step of, if any. */
  sequence?: string;
  /** The catalogue key matched, or null for "create a new product". */
  matched: string | null;
  strategy: MatchStrategy | null;
  score: number | null;
  verdict: "true_positive" | "true_negative" | "false_positive" | "false_negative" | "wrong_product";
  /** The product trigram similarity alone (rule 5 without its guard) would have picked, when that is wrong. */
  unguardedWrongMatch: { product: string; score: number } | null;
}

export interface EvaluationReport {
  outcomes: CaseOutcome[];
  positives: number;
  negatives: number;
  truePositives: number;
  /** Matches to a product when none was right, plus matches to the wrong product. */
  falsePositives: number;
  falseNegatives: number;
  precision: number;
  recall: number;
  /** Right product, but found by another rule than labelled. */
  strategyMismatches: CaseOutcome[];
  /** Cases the similar-name guard kept from a wrong match. */
  guardedCases: CaseOutcome[];
}

export async function loadEvaluationFixture(file = EVALUATION_FILE): Promise<EvaluationFixture> {
  return JSON.parse(await readFile(file, "utf8")) as EvaluationFixture;
}

const PRISMA_PRODUCT_TYPE: Record<ContractProductType, ProductType> = {
  Dye: "Dye",
  Fragrance: "Fragrance",
  Other: "Other",
  Packaging: "Packaging",
  "Raw Material": "RawMaterial",
};

/** Loads the fixture's catalogue into `database` (which should hold no other products) and runs every case. */
export async function evaluate(database: Database, fixture: EvaluationFixture): Promise<EvaluationReport> {
  const keyOf = await loadCatalogue(database, fixture.catalogue);
  const outcomes: CaseOutcome[] = [];
  for (const evaluationCase of fixture.cases) {
    const keys = matchKeys({
      rawMaterialName: evaluationCase.name,
      rawMaterialCode: evaluationCase.code ?? null,
      productType: PRISMA_PRODUCT_TYPE[evaluationCase.productType],
    });
    const [best] = await findCandidates(database.prisma, keys, 1);
    const matched = best ? (keyOf.get(best.productId) ?? `unknown:${best.productId}`) : null;
    const unguarded = await mostSimilar(database, keys.normalizedName, keys.productType);
    const unguardedKey = unguarded ? (keyOf.get(unguarded.id) ?? unguarded.id) : null;
    outcomes.push({
      case: evaluationCase,
      matched,
      strategy: best?.strategy ?? null,
      score: best?.score ?? null,
      verdict: verdict(evaluationCase.expect.product, matched),
      unguardedWrongMatch:
        unguarded && unguardedKey !== evaluationCase.expect.product && unguardedKey !== matched
          ? { product: unguardedKey ?? "", score: Math.round(unguarded.score * 1000) / 1000 }
          : null,
    });
  }
  for (const sequence of fixture.sequences ?? []) {
    outcomes.push(...(await runSequence(database, sequence, keyOf)));
  }
  return summarise(outcomes);
}

class Rollback extends Error {}

/** Creates buyer products' catalogue matches step by step, as POST /buyer_products does; keeps nothing. */
async function runSequence(
  database: Database,
  sequence: EvaluationSequence,
  catalogueKeyOf: ReadonlyMap<string, string>,
): Promise<CaseOutcome[]> {
  const outcomes: CaseOutcome[] = [];
  const keyOf = new Map(catalogueKeyOf);
  try {
    await database.prisma.$transaction(
      async (tx) => {
        for (const step of sequence.steps) {
          const result = await matchOrCreateProduct(
            tx,
            {
              rawMaterialName: step.name,
              rawMaterialCode: step.code ?? null,
              productType: PRISMA_PRODUCT_TYPE[step.productType],
            },
            randomUUID(),
          );
          if (!result.matched && step.creates) keyOf.set(result.productId, step.creates);
          const matched = result.matched
            ? (keyOf.get(result.productId) ?? `unknown:${result.productId}`)
            : null;
          outcomes.push({
            case: step,
            sequence: sequence.description,
            matched,
            strategy: result.strategy === "none" ? null : result.strategy,
            score: result.matched ? result.score : null,
            verdict: verdict(step.expect.product, matched),
            unguardedWrongMatch: null,
          });
        }
        throw new Rollback();
      },
      { maxWait: 60_000, timeout: 120_000 },
    );
  } catch (error) {
    if (!(error instanceof Rollback)) throw error;
  }
  return outcomes;
}

/** Rule 5 as docs/design/decisions.md words it, without the guard: the best name at similarity 0.8 or more. */
async function mostSimilar(
  database: Database,
  normalizedName: string,
  productType: ProductType,
): Promise<{ id: string; score: number } | null> {
  if (!normalizedName) return null;
  const rows = await database.prisma.$queryRaw<{ id: string; score: number }[]>`
    SELECT id::text AS id, similarity(normalized_name, ${normalizedName})::float8 AS score
    FROM products
    WHERE product_type = ${contractSpelling(productType)}::"ProductType"
      AND normalized_name <> ${normalizedName}
      AND similarity(normalized_name, ${normalizedName}) >= ${SIMILAR_NAME_THRESHOLD}
    ORDER BY score DESC, created_at ASC, id ASC
    LIMIT 1`;
  return rows[0] ?? null;
}

function verdict(expected: string | null, matched: string | null): CaseOutcome["verdict"] {
  if (expected === null) return matched === null ? "true_negative" : "false_positive";
  if (matched === null) return "false_negative";
  return matched === expected ? "true_positive" : "wrong_product";
}

function summarise(outcomes: CaseOutcome[]): EvaluationReport {
  const count = (...verdicts: CaseOutcome["verdict"][]) =>
    outcomes.filter((outcome) => verdicts.includes(outcome.verdict)).length;
  const truePositives = count("true_positive");
  const falsePositives = count("false_positive", "wrong_product");
  const positives = outcomes.filter((outcome) => outcome.case.expect.product !== null).length;
  return {
    outcomes,
    positives,
    negatives: outcomes.length - positives,
    truePositives,
    falsePositives,
    falseNegatives: count("false_negative", "wrong_product"),
    // No match made at all counts as perfectly precise: nothing wrong was attached.
    precision: truePositives + falsePositives === 0 ? 1 : truePositives / (truePositives + falsePositives),
    recall: positives === 0 ? 1 : truePositives / positives,
    strategyMismatches: outcomes.filter(
      (outcome) => outcome.verdict === "true_positive" && outcome.strategy !== outcome.case.expect.strategy,
    ),
    guardedCases: outcomes.filter((outcome) => outcome.unguardedWrongMatch !== null),
  };
}

/** Imports the catalogue; returns catalogue key by product id. */
async function loadCatalogue(database: Database, catalogue: CatalogueEntry[]): Promise<Map<string, string>> {
  const keyOf = new Map<string, string>();
  // Distinct creation times in file order, so that "oldest" is the file's order unless an entry says otherwise.
  const base = Date.parse("2021-01-01T00:00:00.000Z");
  const products = catalogue.map((entry, index) => {
    const id = randomUUID();
    keyOf.set(id, entry.key);
    const createdAt = entry.createdAt ?? new Date(base + index * 1000).toISOString();
    return {
      id,
      name: entry.name,
      product_type: entry.productType,
      code: entry.code ?? null,
      cas_number: entry.casNumber ?? null,
      synonyms: entry.synonyms ?? [],
      created_at: createdAt,
      updated_at: createdAt,
    };
  });
  const outcome = await importData(database, { version: 1, products });
  if (!outcome.ok) {
    throw new Error(
      `the evaluation catalogue does not import: ${outcome.problems.map((p) => `${p.path} ${p.message}`).join("; ")}`,
    );
  }
  return keyOf;
}

export function formatReport(report: EvaluationReport): string {
  const lines: string[] = [];
  const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
  const steps = report.outcomes.filter((outcome) => outcome.sequence !== undefined).length;
  lines.push(
    `cases ${report.outcomes.length} (${steps} of them steps of sequences): ${report.positives} with a right product, ${report.negatives} where a new product is right`,
  );
  lines.push(
    `precision ${report.precision.toFixed(3)} (${report.truePositives} right matches, ${report.falsePositives} wrong)`,
  );
  lines.push(`recall    ${report.recall.toFixed(3)} (${report.truePositives} of ${report.positives})`);
  const strategies: (MatchStrategy | null)[] = [
    "cas_number",
    "code",
    "name",
    "synonym",
    "similar_name",
    null,
  ];
  lines.push("", "by expected rule:");
  for (const strategy of strategies) {
    const cases = report.outcomes.filter((outcome) =>
      strategy === null
        ? outcome.case.expect.product === null
        : outcome.case.expect.product !== null && outcome.case.expect.strategy === strategy,
    );
    const right = cases.filter((o) => o.verdict === "true_positive" || o.verdict === "true_negative").length;
    lines.push(
      `  ${(strategy ?? "none (hard negatives)").padEnd(22)} ${right}/${cases.length} ${percent(right / Math.max(cases.length, 1))}`,
    );
  }
  const wrong = report.outcomes.filter(
    (o) => o.verdict === "false_positive" || o.verdict === "wrong_product",
  );
  if (wrong.length > 0) {
    lines.push("", "WRONG MATCHES:");
    for (const o of wrong) {
      lines.push(
        `  "${o.case.name}" (${o.case.productType}) → ${o.matched} by ${o.strategy}, expected ${o.case.expect.product}${o.sequence ? ` [sequence: ${o.sequence}]` : ""}`,
      );
    }
  }
  const missed = report.outcomes.filter((o) => o.verdict === "false_negative");
  if (missed.length > 0) {
    lines.push("", "missed (a new product would be created):");
    for (const o of missed) {
      lines.push(
        `  "${o.case.name}" → expected ${o.case.expect.product}${o.case.known_miss ? ` (known: ${o.case.known_miss})` : ""}`,
      );
    }
  }
  if (report.guardedCases.length > 0) {
    lines.push("", "wrong matches trigram similarity alone would have made, refused by the guard:");
    for (const o of report.guardedCases) {
      const wrong = o.unguardedWrongMatch;
      lines.push(`  "${o.case.name}" → ${wrong?.product} (similarity ${wrong?.score})`);
    }
  }
  for (const o of report.strategyMismatches) {
    lines.push(`rule differs: "${o.case.name}" matched by ${o.strategy}, labelled ${o.case.expect.strategy}`);
  }
  return `${lines.join("\n")}\n`;
}
