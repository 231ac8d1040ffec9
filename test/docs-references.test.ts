// The repository stands alone: what code, tests and docs cite (a docs file, a
// numbered section of docs/design/decisions.md, a heading, a contract section) exists
// here, and nothing points at files outside the repository.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SCANNED = ["src", "test", "scripts", "tools", "bench", "docs", "prisma", "client", "README.md"];
const SKIPPED = new Set(["generated", "node_modules", "migrations", "dist"]);
const THIS_FILE = path.join("test", "docs-references.test.ts");

function filesUnder(relative: string): string[] {
  const absolute = path.join(ROOT, relative);
  if (statSync(absolute).isFile()) return [relative];
  return readdirSync(absolute, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const child = path.join(relative, entry.name);
    if (entry.isDirectory()) return filesUnder(child);
    return /\.(ts|md|prisma)$/.test(entry.name) && child !== THIS_FILE ? [child] : [];
  });
}

const FILES = SCANNED.flatMap(filesUnder).map((file) => ({
  file,
  text: readFileSync(path.join(ROOT, file), "utf8"),
}));

function headingsOf(doc: string): string[] {
  return readFileSync(path.join(ROOT, doc), "utf8")
    .split("\n")
    .flatMap((line) => /^#+\s+(.*)$/.exec(line)?.[1] ?? []);
}

const DECISIONS = headingsOf("docs/design/decisions.md");
const CONTRACT = headingsOf("docs/reference/contract.md");

/** Every match of `pattern` in the scanned files, as "file: match" for a readable failure. */
function citations(pattern: RegExp): { where: string; groups: string[] }[] {
  return FILES.flatMap(({ file, text }) =>
    [...text.matchAll(pattern)].map((match) => ({ where: `${file}: ${match[0]}`, groups: match.slice(1) })),
  );
}

describe("references inside the repository", () => {
  it("nothing points at the shared folder or at documents that are not here", () => {
    const outside = citations(/\.\.\/shared|FORMAT\.md|buyer-public-api-v1\.md/g);
    expect(outside.map((hit) => hit.where)).toEqual([]);
  });

  it("every docs/*.md that is cited exists", () => {
    const missing = citations(/docs\/((?:[\w-]+\/)*[\w-]+\.md)/g).filter(
      ({ groups: [name] }) => !FILES.some(({ file }) => file === path.join("docs", name ?? "")),
    );
    expect(missing.map((hit) => hit.where)).toEqual([]);
  });

  it("every relative link in a Markdown file leads to a file that is here", () => {
    const broken = FILES.filter(({ file }) => file.endsWith(".md")).flatMap(({ file, text }) =>
      [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)\s]*)?\)/g)]
        .map((match) => match[1] ?? "")
        .filter((target) => !/^[a-z]+:/.test(target))
        .filter((target) => !existsSync(path.join(ROOT, path.dirname(file), target)))
        .map((target) => `${file}: ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("every numbered section of decisions.md that is cited exists", () => {
    const missing = citations(/decisions\.md,? §(\d+)/g).filter(
      ({ groups: [number] }) => !DECISIONS.some((heading) => heading.startsWith(`${number}. `)),
    );
    expect(missing.map((hit) => hit.where)).toEqual([]);
  });

  it('every heading of decisions.md cited by name ("Update order") exists', () => {
    const missing = citations(/decisions\.md,? (?:§\d+,? )?"([^"]+)"/g).filter(
      ({ groups: [heading] }) =>
        !DECISIONS.some((known) => known === heading || known.endsWith(`. ${heading}`)),
    );
    expect(missing.map((hit) => hit.where)).toEqual([]);
  });

  it("every contract section that is cited (contract 4.6) exists in docs/reference/contract.md", () => {
    const missing = citations(/contract(?:\.md)? (?:§)?(\d\.\d)/g).filter(
      ({ groups: [number] }) => !CONTRACT.some((heading) => heading.startsWith(`${number} `)),
    );
    expect(missing.map((hit) => hit.where)).toEqual([]);
  });
});
