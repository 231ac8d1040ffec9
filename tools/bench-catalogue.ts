// A generated catalogue for `npm run bench:match`: names built from the same
// vocabulary chemical catalogues use, so that many names share trigrams (the
// hard case for the trigram index), with CAS numbers, codes and synonyms.
// Deterministic: the same seed gives the same catalogue.

export type ContractProductType = "Dye" | "Fragrance" | "Other" | "Packaging" | "Raw Material";

export interface GeneratedProduct {
  id: string;
  name: string;
  product_type: ContractProductType;
  code: string | null;
  cas_number: string | null;
  synonyms: string[];
  created_at: string;
  updated_at: string;
}

/** mulberry32: a small seeded generator, enough for test data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CATIONS = ["Sodium", "Potassium", "Calcium", "Magnesium", "Zinc", "Ammonium", "Disodium", "Trisodium"];
const CHAINS = [
  "Lauryl",
  "Laureth",
  "Myristyl",
  "Cetyl",
  "Cetearyl",
  "Stearyl",
  "Oleyl",
  "Cocoyl",
  "Behenyl",
  "Caprylyl",
  "Decyl",
  "Isostearyl",
  "Palmitoyl",
  "Lauroyl",
  "Myristoyl",
  "Cocamidopropyl",
  "Lauramidopropyl",
  "Hydroxypropyl",
  "Ethylhexyl",
  "Octyldodecyl",
];
const ANIONS = [
  "Sulfate",
  "Sulfonate",
  "Phosphate",
  "Glutamate",
  "Sarcosinate",
  "Isethionate",
  "Taurate",
  "Citrate",
  "Lactate",
  "Betaine",
  "Glucoside",
  "Benzoate",
  "Stearate",
  "Palmitate",
  "Acetate",
  "Succinate",
  "Amphoacetate",
  "Hydroxysultaine",
  "Alaninate",
  "Aspartate",
];
const GENERA = [
  "Lavandula",
  "Rosmarinus",
  "Mentha",
  "Citrus",
  "Eucalyptus",
  "Melaleuca",
  "Salvia",
  "Thymus",
  "Origanum",
  "Cymbopogon",
  "Pelargonium",
  "Jasminum",
  "Rosa",
  "Santalum",
  "Cedrus",
  "Pogostemon",
  "Vetiveria",
  "Boswellia",
  "Commiphora",
  "Zingiber",
  "Curcuma",
  "Aloe",
  "Camellia",
  "Chamomilla",
  "Calendula",
  "Helianthus",
  "Simmondsia",
  "Butyrospermum",
  "Theobroma",
  "Cocos",
];
const SPECIES = [
  "Angustifolia",
  "Officinalis",
  "Piperita",
  "Aurantium",
  "Globulus",
  "Alternifolia",
  "Sclarea",
  "Vulgaris",
  "Citratus",
  "Graveolens",
  "Grandiflorum",
  "Damascena",
  "Album",
  "Atlantica",
  "Cablin",
  "Zizanioides",
  "Carterii",
  "Myrrha",
  "Longa",
  "Barbadensis",
  "Sinensis",
  "Recutita",
  "Annuus",
  "Chinensis",
  "Parkii",
  "Cacao",
  "Nucifera",
  "Limon",
  "Bergamia",
  "Reticulata",
];
const PARTS = ["Flower", "Leaf", "Root", "Seed", "Peel", "Bark", "Fruit", "Wood", "Resin", "Herb"];
const FORMS = ["Oil", "Extract", "Water", "Butter", "Wax", "Absolute", "Powder", "Juice"];
const SYLLABLES = [
  "tex",
  "pla",
  "dehy",
  "cre",
  "mo",
  "sur",
  "gen",
  "ami",
  "lu",
  "vo",
  "ra",
  "zen",
  "qui",
  "pol",
  "bri",
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

function brand(random: () => number): string {
  const length = 2 + Math.floor(random() * 2);
  const word = Array.from({ length }, () => pick(random, SYLLABLES)).join("");
  const letters = String.fromCharCode(65 + Math.floor(random() * 26), 65 + Math.floor(random() * 26));
  return `${word[0]?.toUpperCase()}${word.slice(1)} ${letters} ${10 + Math.floor(random() * 990)}`;
}

/** A valid CAS registry number built around `serial` (unique serials give unique numbers). */
export function casNumberFor(serial: number, random: () => number): string {
  const first = String(10_000 + serial);
  const second = String(Math.floor(random() * 100)).padStart(2, "0");
  const digits = `${first}${second}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) sum += Number(digits[digits.length - 1 - i]) * (i + 1);
  return `${first}-${second}-${sum % 10}`;
}

function productName(random: () => number): { name: string; type: ContractProductType } {
  const form = random();
  if (form < 0.45) {
    const prefix = random() < 0.5 ? pick(random, CATIONS) : `PEG-${2 + Math.floor(random() * 150)}`;
    const suffix = random() < 0.6 ? ` ${20 + Math.floor(random() * 80)}%` : "";
    return {
      name: `${prefix} ${pick(random, CHAINS)} ${pick(random, ANIONS)}${suffix}`,
      type: random() < 0.9 ? "Raw Material" : "Other",
    };
  }
  if (form < 0.7) {
    const extra =
      random() < 0.5 ? ` ${pick(random, ["Organic", "CO2", "Refined", "Virgin", "Deodorized"])}` : "";
    return {
      name: `${pick(random, GENERA)} ${pick(random, SPECIES)} ${pick(random, PARTS)} ${pick(random, FORMS)}${extra}`,
      type: random() < 0.5 ? "Fragrance" : "Raw Material",
    };
  }
  if (form < 0.9) return { name: brand(random), type: "Raw Material" };
  if (form < 0.95) return { name: `CI ${10_000 + Math.floor(random() * 90_000)}`, type: "Dye" };
  const material = pick(random, ["HDPE", "PET", "PP", "Glass", "Aluminum"]);
  const item = pick(random, ["Bottle", "Jar", "Tube", "Drum", "Pail", "Cap", "Pump"]);
  return { name: `${material} ${item} ${5 * (1 + Math.floor(random() * 400))} mL`, type: "Packaging" };
}

/** `count` products with unique names; about 70% with a CAS number, 60% with a code, 25% with synonyms. */
export function generateCatalogue(count: number, seed = 42): GeneratedProduct[] {
  const random = seededRandom(seed);
  const names = new Set<string>();
  const products: GeneratedProduct[] = [];
  const start = Date.parse("2020-01-01T00:00:00.000Z");
  while (products.length < count) {
    const { name, type } = productName(random);
    if (names.has(name)) continue;
    names.add(name);
    const index = products.length;
    const createdAt = new Date(start + index * 60_000).toISOString();
    products.push({
      id: uuidFor(index),
      name,
      product_type: type,
      code:
        random() < 0.6 ? `C${String(index).padStart(6, "0")}-${type === "Packaging" ? "PK" : "RM"}` : null,
      cas_number: random() < 0.7 && type !== "Packaging" ? casNumberFor(index, random) : null,
      synonyms:
        random() < 0.25 ? Array.from({ length: 1 + Math.floor(random() * 2) }, () => brand(random)) : [],
      created_at: createdAt,
      updated_at: createdAt,
    });
  }
  return products;
}

function uuidFor(index: number): string {
  const hex = index.toString(16).padStart(12, "0");
  return `00000000-0000-4000-8000-${hex}`;
}
