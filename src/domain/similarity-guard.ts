// Trigram similarity cannot tell a typo from a different chemical: "PEG-40"
// and "PEG-400", "Sodium Laureth Sulfate" and "Sodium Lauryl Sulfate" look
// alike to it. A similar-name candidate is therefore accepted only when the
// two normalised names differ in ways that cannot change the substance: word
// order, spacing, a trailing "e" or plural "s", a doubled letter.
// Rule 5 finds candidates through similar_name_key (its migration explains
// it), which none of these differences change. Accepting any other difference
// here needs that key changed too, or the lookup will not find such names.
import { DISTINCT_WORDS, KIND_ENDINGS, NAME_PIECES } from "./chemical-vocabulary.js";

export type SimilarityVeto =
  | "numbers_differ"
  | "word_count_differs"
  | "too_many_words_differ"
  | "words_differ";

/** Why `candidate` must not stand for `query` (both normalised names), or null when it may. */
export function similarityVeto(query: string, candidate: string): SimilarityVeto | null {
  if (numbersOf(query) !== numbersOf(candidate)) return "numbers_differ";
  const left = query.split(" ");
  const right = candidate.split(" ");
  const [onlyLeft, onlyRight] = withoutCommonWords(left, right);
  if (onlyLeft.length === 0 && onlyRight.length === 0) return null;
  // "Hydroxyethyl Cellulose" and "Hydroxyethylcellulose" are one name spaced two ways.
  if (left.join("") === right.join("")) return null;
  if (onlyLeft.length !== onlyRight.length) return "word_count_differs";
  if (onlyLeft.length > MAX_DIFFERING_WORDS) return "too_many_words_differ";
  return pairsUp(onlyLeft, onlyRight) ? null : "words_differ";
}

const MAX_DIFFERING_WORDS = 3;

/** Every number in order: "PEG 40" vs "PEG 400", "2 chloro 4 nitro" vs "4 chloro 2 nitro". */
function numbersOf(name: string): string {
  return (name.match(/\d+/g) ?? []).join(" ");
}

function withoutCommonWords(left: readonly string[], right: readonly string[]): [string[], string[]] {
  const remaining = [...right];
  const onlyLeft: string[] = [];
  for (const word of left) {
    const index = remaining.indexOf(word);
    if (index === -1) onlyLeft.push(word);
    else remaining.splice(index, 1);
  }
  return [onlyLeft, remaining];
}

/** True when each word on the left is a spelling of a different word on the right. */
function pairsUp(left: readonly string[], right: readonly string[]): boolean {
  const [first, ...rest] = left;
  if (first === undefined) return right.length === 0;
  return right.some(
    (word, index) =>
      isSpellingOf(first, word) && pairsUp(rest, [...right.slice(0, index), ...right.slice(index + 1)]),
  );
}

const MIN_SPELLING_LENGTH = 5;

/** Two spellings of one word, never two words: see the file comment. */
export function isSpellingOf(a: string, b: string): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < MIN_SPELLING_LENGTH || /\d/.test(long)) return false;
  // Two known words are two substances ("cetyl" and "cetearyl", "sulfate" and "sulfite").
  if (DISTINCT_WORDS.has(short) && DISTINCT_WORDS.has(long)) return false;
  const sameKind = kindsAgree(kindOf(short), kindOf(long));
  // A trailing "e" or plural "s" only moves the ending, which `sameKind` judges ("acetat", "glycole").
  if (long === `${short}e` || long === `${short}s`) return sameKind;
  // A doubled letter can sit inside a piece: "dii" is not "di".
  return isDoubledLetterOf(long, short) && sameKind && piecesOf(short) === piecesOf(long);
}

/** "potassium" for "potasium": `long` has a letter twice where `short` has it once. */
function isDoubledLetterOf(long: string, short: string): boolean {
  if (long.length !== short.length + 1) return false;
  for (let i = 0; i + 1 < long.length; i += 1) {
    if (long[i] === long[i + 1] && long.slice(0, i) + long.slice(i + 1) === short) return true;
  }
  return false;
}

/** The systematic-name pieces of a word, read left to right, longest piece first. */
export function piecesOf(word: string): string {
  const pieces: string[] = [];
  let i = 0;
  while (i < word.length) {
    const piece = PIECES_LONGEST_FIRST.find((candidate) => word.startsWith(candidate, i));
    if (piece) {
      pieces.push(piece);
      i += piece.length;
    } else {
      i += 1;
    }
  }
  return pieces.join(" ");
}

const PIECES_LONGEST_FIRST = [...NAME_PIECES].sort((a, b) => b.length - a.length);

function kindOf(word: string): string | null {
  const singular = word.length > MIN_SPELLING_LENGTH && /[^su]s$/.test(word) ? word.slice(0, -1) : word;
  for (const [ending, kind] of KIND_ENDINGS) if (singular.endsWith(ending)) return kind;
  return null;
}

/** A spelling without a recognised ending ("acetat") may stand for one with it ("acetate"). */
function kindsAgree(a: string | null, b: string | null): boolean {
  return a === null || b === null || a === b;
}
