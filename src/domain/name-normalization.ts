// The steps that reduce a product name to the key auto-match compares. Text
// steps run first (they need the punctuation that tells "7H2O" or "250kg"
// apart), then word steps on the words that remain. docs/reference/auto-match.md gives
// an example of each step.

import { isValidCasNumber, withPlainHyphens } from "./cas-number.js";
import {
  CATION_SYMBOLS,
  CATION_WORDS,
  GRADE_QUALIFIERS,
  HYDRATE_WORDS,
  INFIX_SPELLINGS,
  IRREGULAR_ACID_ANIONS,
  MASS_AND_VOLUME_UNITS,
  PACK_WORDS,
  PHARMACOPOEIA_TOKENS,
  PREFIX_SPELLINGS,
  SALT_ABBREVIATIONS,
  SINGLE_LETTER_UNITS,
  TRAILING_GRADE_WORDS,
  WORD_SPELLINGS,
} from "./chemical-vocabulary.js";

export interface NameOptions {
  /** Packaging is identified by its size ("HDPE Bottle 500 mL"), so sizes stay in its names. */
  keepPackSizes: boolean;
}

export function normalizeName(name: string, options: NameOptions): string {
  // NFKC would spell a trademark sign as the letters "TM", glued to the name ("Tween™ 80").
  let text = withPlainHyphens(name.replace(/[™℠]/gu, " "));
  // Invisible format characters (zero-width space, soft hyphen) sit inside words; deleting them rejoins the word.
  text = text.replace(/\p{Cf}/gu, "");
  // Collapsed now, not only at the end, so that no later pattern backtracks over a long run of spaces.
  text = text.replace(/[\p{Cc}\p{Co}\p{Cs}\p{Cn}\s]+/gu, " ");
  text = text.toLowerCase().replace(/ß/g, "ss");
  text = stripLatinDiacritics(text);
  text = spellOutGreekLetters(text);
  text = spellOutOpticalRotation(text);
  text = spellOutPrimes(text);
  text = joinDottedAbbreviations(text);
  text = removeValidCasNumbers(text);
  text = spellOutHydrates(text);
  if (!options.keepPackSizes) text = removePackSizes(text);
  text = text
    // "99.5%" keeps saying it is a purity: "USP 99.5%" is a grade and a purity, "EP 250" a trade name.
    .replace(/(?<=\d)\s*%/gu, " percent ")
    .replace(/[\p{P}\p{S}]+/gu, " ")
    // "PEG400" and "PEG-400" are one name; so are "B12" and "B 12".
    .replace(/(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/gu, " ")
    .replace(/\s+/gu, " ")
    .trim();
  if (text === "") return "";
  return normalizeWords(text.split(" ")).join(" ");
}

function stripLatinDiacritics(text: string): string {
  // Only marks on Latin letters: in other scripts a mark can be a vowel, and removing it changes the word.
  // Marks on no letter at all (an emoji's variation selector) mean nothing to a name.
  return text
    .normalize("NFD")
    .replace(/(\p{Script=Latin})\p{M}+/gu, "$1")
    .replace(/(?<![\p{L}\p{M}])\p{M}+/gu, "")
    .normalize("NFC");
}

const GREEK_LETTERS: Record<string, string> = { α: "alpha", β: "beta", γ: "gamma", δ: "delta", ω: "omega" };

function spellOutGreekLetters(text: string): string {
  return text.replace(/[αβγδω]/gu, (letter) => ` ${GREEK_LETTERS[letter] ?? letter} `);
}

// Enantiomers are different substances: "(+)-limonene" must not lose its sign with the punctuation.
function spellOutOpticalRotation(text: string): string {
  return text
    .replace(/\(\s*(?:±|\+\s*\/\s*[-−])\s*\)/gu, " racemic ")
    .replace(/\(\s*\+\s*\)/gu, " plus ")
    .replace(/\(\s*[-−‐‑–]\s*\)/gu, " minus ");
}

const APOSTROPHES = "['’′‘´`]";

// N,N'- and N,N- name different compounds, so a prime after a locant becomes a word;
// any other apostrophe only joins ("Baker's" is "Bakers").
function spellOutPrimes(text: string): string {
  return text
    .replace(
      new RegExp(`(?<![\\p{L}\\p{N}])([\\p{L}\\p{N}])(${APOSTROPHES}+)`, "gu"),
      (_match, locant: string, primes: string) => `${locant} ${"prime ".repeat([...primes].length)}`,
    )
    .replace(new RegExp(APOSTROPHES, "gu"), "");
}

/** "C.I. 77891" is "CI 77891", "U.S.P." is "USP". */
function joinDottedAbbreviations(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}])(?:\p{L}\.){2,}/gu, (match) => `${match.replace(/\./g, "")} `);
}

// A valid CAS number has already had its say (rule 1); left in the name it would keep
// "Glycerin (CAS 56-81-5)" from matching "Glycerin" by name. An invalid one stays, so the
// name differs and does not match: a mistyped number is a reason for doubt.
function removeValidCasNumbers(text: string): string {
  return text.replace(
    /(?:(?<![\p{L}\p{N}])cas(?:\s*(?:no|nr|number|rn))?\s*[.:#]*\s*)?(?<!\d-?)(\d{2,7})-(\d{2})-(\d)(?!-?\d)/gu,
    (match, first: string, second: string, check: string) =>
      isValidCasNumber(`${first}-${second}-${check}`) ? " " : match,
  );
}

function hydrateWord(count: string): string | undefined {
  return HYDRATE_WORDS.get(count.replace("⁄", "/"));
}

// A count is read whole or not at all: "1/2-hydrate" is a hemihydrate, and no "dihydrate" starts after a "3/".
const HYDRATE_COUNT = /(?<![\p{L}\p{N}.,/⁄])(\d+(?:\.5)?|1[/⁄]2)[\s-]*hydrate(?![\p{L}\p{N}])/gu;

/** "MgSO4·7H2O", "CaCl2.2H2O", "7-hydrate", "1/2-hydrate" → "heptahydrate", "dihydrate", "hemihydrate". */
function spellOutHydrates(text: string): string {
  return text
    .replace(
      /(?:\s*[·•∙⋅*.]\s*|\s+)(\d+(?:\.5)?|1[/⁄]2|x|n)\s*h2o(?![\p{L}\p{N}])/gu,
      (match, count: string) => {
        const word = hydrateWord(count);
        return word ? ` ${word} ` : match;
      },
    )
    .replace(/\s*[·•∙⋅*]\s*h2o(?![\p{L}\p{N}])/gu, " monohydrate ")
    .replace(HYDRATE_COUNT, (match, count: string) => {
      const word = hydrateWord(count);
      return word ? ` ${word} ` : match;
    });
}

const QUANTITY = String.raw`\d+(?:[.,]\d+)?`;
const COUNT_TIMES = String.raw`(?:${QUANTITY}\s*[x×*]\s*)?`;
const PACK_WORD = String.raw`(?:${PACK_WORDS.join("|")})(?![\p{L}\p{N}])`;
const PACK_SIZE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,])${COUNT_TIMES}${QUANTITY}\s*(?:${MASS_AND_VOLUME_UNITS.join("|")})(?![\p{L}\p{N}])(?:\s*/?\s*${PACK_WORD})?`,
  "gu",
);
const SMALL_UNIT_PACK_SIZE = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,])${COUNT_TIMES}${QUANTITY}\s*(?:${SINGLE_LETTER_UNITS.join("|")})\s*/?\s*${PACK_WORD}`,
  "gu",
);

/** "Glycerin 250kg drum", "Ethanol 4 x 5 L" → "Glycerin", "Ethanol". */
function removePackSizes(text: string): string {
  return text.replace(PACK_SIZE, " ").replace(SMALL_UNIT_PACK_SIZE, " ");
}

const DIGITS = /^\d+$/;

function normalizeWords(input: readonly string[]): string[] {
  let words = input.map(respell);
  words = joinPharmacopoeiaEuropaea(words);
  words = words.filter((word, index) => !(isNumberLabel(word) && DIGITS.test(words[index + 1] ?? "")));
  words = spellOutSalt(words);
  words = removeGrades(words);
  return frontTrailingCation(words);
}

function respell(word: string): string {
  let spelled = WORD_SPELLINGS.get(word) ?? word;
  for (const [from, to] of INFIX_SPELLINGS) spelled = spelled.replaceAll(from, to);
  for (const [from, to] of PREFIX_SPELLINGS) {
    if (spelled.startsWith(from)) spelled = to + spelled.slice(from.length);
  }
  spelled = spelled
    .replace(/^(\p{L}{3,})is(ed|er|ers|ation|ations)$/u, "$1iz$2")
    .replace(/^(\p{L}{3,})ys(ed|er|ers)$/u, "$1yz$2");
  if (spelled === "anhydrate") return "anhydrous";
  return SALT_ABBREVIATIONS.get(spelled) ?? spelled;
}

function joinPharmacopoeiaEuropaea(words: readonly string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    if (words[i] === "ph" && words[i + 1] === "eur") {
      joined.push("pheur");
      i += 1;
    } else {
      joined.push(words[i] ?? "");
    }
  }
  return joined;
}

/** "Red No. 40" is "Red 40". */
function isNumberLabel(word: string): boolean {
  return word === "no" || word === "nr" || word === "number";
}

function anionOfAcid(acid: string): string | null {
  const irregular = IRREGULAR_ACID_ANIONS.get(acid);
  if (irregular) return irregular;
  if (acid.length > 4 && acid.endsWith("ic")) return `${acid.slice(0, -2)}ate`;
  if (acid.length > 5 && acid.endsWith("ous")) return `${acid.slice(0, -3)}ite`;
  return null;
}

/**
 * "Citric acid, trisodium salt" is "Trisodium citrate"; "EDTA disodium salt" is
 * "Disodium EDTA": the salt's systematic name, cation first.
 */
function spellOutSalt(words: readonly string[]): string[] {
  const salt = words.indexOf("salt");
  if (salt < 2) return [...words];
  const cationWord = words[salt - 1] ?? "";
  const cation = CATION_WORDS.has(cationWord) ? cationWord : CATION_SYMBOLS.get(cationWord);
  if (!cation) return [...words];
  const after = words.slice(salt + 1);
  if (words[salt - 2] === "acid" && salt >= 3) {
    const anion = anionOfAcid(words[salt - 3] ?? "");
    if (anion) return [...words.slice(0, salt - 3), cation, anion, ...after];
  }
  return [cation, ...words.slice(0, salt - 1), ...after];
}

function removeGrades(input: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < input.length; i += 1) {
    const word = input[i] ?? "";
    const next = input[i + 1];
    if (GRADE_QUALIFIERS.has(word) && next === "grade") {
      i += 1;
    } else if (PHARMACOPOEIA_TOKENS.has(word) && !startsTradeNumber(input, i + 1)) {
      // dropped: "Glycerin USP", "USP/NF", "USP 99.5%"; "EP 250" keeps its letters as part of a trade name
    } else {
      words.push(word);
    }
  }
  while (words.length > 1 && TRAILING_GRADE_WORDS.has(words.at(-1) ?? "")) words.pop();
  return words;
}

/** Digits at `start` that are not a percentage. */
function startsTradeNumber(words: readonly string[], start: number): boolean {
  let end = start;
  while (DIGITS.test(words[end] ?? "")) end += 1;
  return end > start && words[end] !== "percent";
}

/** "Diclofenac Sodium" is "Sodium Diclofenac". */
function frontTrailingCation(words: string[]): string[] {
  const last = words.at(-1);
  const first = words[0];
  if (words.length < 2 || !last || !first || !CATION_WORDS.has(last) || CATION_WORDS.has(first)) return words;
  return [last, ...words.slice(0, -1)];
}
