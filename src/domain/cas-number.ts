// CAS registry numbers: the strongest identity a buyer can give (auto-match rule 1),
// trusted only when the check digit agrees.

const CAS_SHAPE = /^(\d{2,7})-(\d{2})-(\d)$/;
const CAS_IN_TEXT = /(?<!\d-?)(\d{2,7})-(\d{2})-(\d)(?!-?\d)/g;

/** A CAS registry number's check digit: digits weighted by position from the right. */
export function isValidCasNumber(cas: string): boolean {
  const match = CAS_SHAPE.exec(cas);
  if (!match) return false;
  const digits = `${match[1]}${match[2]}`;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    sum += Number(digits[digits.length - 1 - i]) * (i + 1);
  }
  return sum % 10 === Number(match[3]);
}

/** Every valid CAS number written in `text`, in order of appearance, without repeats. */
export function findCasNumbers(text: string): string[] {
  const found: string[] = [];
  for (const match of withPlainHyphens(text).matchAll(CAS_IN_TEXT)) {
    const cas = `${match[1]}-${match[2]}-${match[3]}`;
    if (isValidCasNumber(cas) && !found.includes(cas)) found.push(cas);
  }
  return found;
}

/** NFKC, and the dashes word processors put in numbers read as hyphens. */
export function withPlainHyphens(text: string): string {
  return text.normalize("NFKC").replace(/[‐‑‒–−]/g, "-");
}
