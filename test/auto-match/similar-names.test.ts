// Names a buyer misspells the way the similar-name rule forgives (words
// swapped or run together, a plural "s", a trailing "e", a doubled letter):
// whenever the guard accepts the spelling and trigram similarity reaches 0.8,
// the dry run lists the catalogue product by similar name, and otherwise it
// does not. This holds the lookup key of rule 5 to the guard it stands for.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeProductNameForType } from "../../src/domain/product-identity.js";
import { similarityVeto } from "../../src/domain/similarity-guard.js";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { importCatalogue, matchProduct } from "./support.js";

const CATALOGUE = [
  "Sodium Cocoyl Isethionate",
  "Disodium Laureth Sulfosuccinate",
  "Cocamidopropyl Hydroxysultaine",
  "Hydroxypropyl Methylcellulose",
  "Caprylic Capric Triglyceride",
  "Isopropyl Palmitate",
  "Tocopheryl Acetate",
  "Potassium Cetyl Phosphate",
  "Sorbitan Olivate",
  "Butyrospermum Parkii Butter",
  "Simmondsia Chinensis Seed Oil",
  "Ethylhexyl Methoxycinnamate",
  "Polyglyceryl Dipolyhydroxystearate",
  "Magnesium Aluminum Silicate",
  "Glyceryl Caprylate",
];

type Edit = (words: string[], at: number) => string[];

const EDITS: Record<string, Edit> = {
  "swap two words": (words, at) => {
    const i = at % Math.max(words.length - 1, 1);
    const swapped = [...words];
    [swapped[i], swapped[i + 1]] = [swapped[i + 1] ?? "", swapped[i] ?? ""];
    return swapped;
  },
  "run two words together": (words, at) => {
    const i = at % Math.max(words.length - 1, 1);
    return [...words.slice(0, i), `${words[i]}${words[i + 1] ?? ""}`, ...words.slice(i + 2)];
  },
  "add a plural s": (words, at) => words.map((word, i) => (i === at % words.length ? `${word}s` : word)),
  "add a trailing e": (words, at) => words.map((word, i) => (i === at % words.length ? `${word}e` : word)),
  "double a letter": (words, at) => {
    const i = at % words.length;
    const word = words[i] ?? "";
    const letter = 1 + (at % Math.max(word.length - 1, 1));
    return words.map((w, j) => (j === i ? `${word.slice(0, letter)}${word.slice(letter - 1)}` : w));
  },
};

describe("similar names the guard forgives are always found", () => {
  let harness: TestApp;
  let buyer: SeededBuyer;
  let ids: string[];

  beforeAll(async () => {
    harness = await createTestApp();
    buyer = await seedBuyer(harness.database, "Typos");
    ids = await importCatalogue(
      harness.database,
      CATALOGUE.map((name) => ({ name })),
    );
  });
  afterAll(async () => {
    await harness?.close();
  });

  async function similarity(a: string, b: string): Promise<number> {
    const [row] = await harness.database.prisma.$queryRaw<{ score: number }[]>`
      SELECT similarity(${a}, ${b})::float8 AS score`;
    return row?.score ?? 0;
  }

  it("lists the product by similar name exactly when the guard accepts it at similarity 0.8 or more", async () => {
    const edits = fc.array(fc.tuple(fc.constantFrom(...Object.keys(EDITS)), fc.nat({ max: 20 })), {
      minLength: 1,
      maxLength: 2,
    });
    await fc.assert(
      fc.asyncProperty(fc.nat({ max: CATALOGUE.length - 1 }), edits, async (index, chosen) => {
        const original = CATALOGUE[index] ?? "";
        let words = original.split(" ");
        for (const [edit, at] of chosen) words = EDITS[edit]?.(words, at) ?? words;
        const typed = words.join(" ");

        const query = normalizeProductNameForType(typed, "RawMaterial");
        const stored = normalizeProductNameForType(original, "RawMaterial");
        const forgiven =
          query !== stored &&
          similarityVeto(query, stored) === null &&
          (await similarity(query, stored)) >= 0.8;

        const candidates = await matchProduct(harness.app, buyer.apiKey, typed);
        const listed = candidates.find((candidate) => candidate.product.id === ids[index]);
        if (query === stored) expect(listed?.strategy, typed).toBe("name");
        else if (forgiven) expect(listed?.strategy, typed).toBe("similar_name");
        else expect(listed, typed).toBeUndefined();
      }),
      { numRuns: 120 },
    );
  });
});
