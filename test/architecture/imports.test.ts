// The import graph of src/: every arrow points down the floors described in
// docs/design/architecture.md, and no module reaches itself through its imports.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../src/project-root.js";

const SRC = path.join(projectRoot(), "src");

/**
 * Top to bottom. A module may import from its own area, from any area on a
 * lower floor, and from another area of its own floor only where
 * `SIDEWAYS_ALLOWED` says so.
 */
const FLOORS: readonly (readonly string[])[] = [
  ["cli"],
  ["server"],
  ["app", "webhooks"],
  ["openapi"],
  ["rest", "graphql"],
  ["contract"],
  ["http"],
  ["schema", "import"],
  ["services"],
  ["domain"],
  ["auth"],
  ["config"],
  ["telemetry"],
  ["logger"],
  ["db"],
  ["project-root"],
];

/** `from → to` pairs of areas on one floor that may import each other's modules. */
const SIDEWAYS_ALLOWED: ReadonlySet<string> = new Set([]);

/** src/server.ts and src/server/* are "server"; src/app.ts is "app"; src/db/x.ts is "db". */
function areaOf(file: string): string {
  const [first = "", ...rest] = path.relative(SRC, file).split(path.sep);
  return rest.length > 0 ? first : first.replace(/\.ts$/, "");
}

function floorOf(area: string): number {
  const floor = FLOORS.findIndex((areas) => areas.includes(area));
  if (floor < 0)
    throw new Error(`src/${area} has no floor: add it to FLOORS and docs/design/architecture.md`);
  return floor;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    // Prisma's generated client is not ours to arrange.
    if (entry.isDirectory()) return full === path.join(SRC, "db", "generated") ? [] : sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

const display = (file: string) => path.relative(projectRoot(), file).split(path.sep).join("/");

/** Every relative import (static, dynamic, re-export, type-only) of every module, as files. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    graph.set(
      file,
      importedFiles
        .map((imported) => imported.fileName)
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => path.resolve(path.dirname(file), specifier.replace(/\.js$/, ".ts"))),
    );
  }
  return graph;
}

function ruleBroken(from: string, to: string): string | null {
  const fromArea = areaOf(from);
  const toArea = areaOf(to);
  if (fromArea === toArea) return null;
  const fromFloor = floorOf(fromArea);
  const toFloor = floorOf(toArea);
  if (toFloor < fromFloor) return "points up";
  if (toFloor === fromFloor && !SIDEWAYS_ALLOWED.has(`${fromArea} -> ${toArea}`)) return "points sideways";
  return null;
}

/** Each cycle once, as the files it passes through. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, "open");
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === "open") found.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) if (!state.has(file)) visit(file);
  return found;
}

/**
 * Modules that reach a database or the network. The domain takes and returns
 * plain data, so it imports none of them (even for types); the generated enums
 * are plain values and stay allowed.
 */
const IO_MODULES: readonly string[] = ["pg", "node:dns", "node:net"];

function ioImport(from: string, specifier: string): string | null {
  if (IO_MODULES.includes(specifier)) return specifier;
  if (!specifier.startsWith(".")) return null;
  const to = path.resolve(path.dirname(from), specifier.replace(/\.js$/, ".ts"));
  if (to === path.join(SRC, "db", "generated", "prisma", "enums.ts")) return null;
  return areaOf(to) === "db" ? display(to) : null;
}

/** Each import of an I/O module by a file of `area` (src/domain, src/rest), as `file -> module`. */
function ioImportsIn(area: string, files: ReadonlyMap<string, string>): string[] {
  return [...files].flatMap(([file, text]) =>
    areaOf(file) === area
      ? ts.preProcessFile(text, true, true).importedFiles.flatMap(({ fileName }) => {
          const io = ioImport(file, fileName);
          return io ? [`${display(file)} -> ${io}`] : [];
        })
      : [],
  );
}

describe("the import graph of src/", () => {
  const graph = importGraph();

  it("imports only existing modules (so the other checks see every arrow)", () => {
    const missing = [...graph.values()].flatMap((targets) =>
      targets.filter((to) => !graph.has(to) && !to.startsWith(path.join(SRC, "db", "generated"))),
    );
    expect(missing.map(display)).toEqual([]);
  });

  it("points only down the floors", () => {
    const broken = [...graph].flatMap(([from, targets]) =>
      targets.flatMap((to) => {
        const rule = ruleBroken(from, to);
        return rule ? [`${display(from)} -> ${display(to)}`] : [];
      }),
    );
    expect(broken).toEqual([]);
  });

  it("has no import cycle", () => {
    expect(cycles(graph).map((cycle) => cycle.map(display).join(" -> "))).toEqual([]);
  });

  it("keeps I/O out of src/domain", () => {
    const files = new Map(sourceFiles(SRC).map((file) => [file, readFileSync(file, "utf8")]));
    expect(ioImportsIn("domain", files)).toEqual([]);
  });

  it("keeps the database out of src/rest: it only runs GraphQL operations", () => {
    const files = new Map(sourceFiles(SRC).map((file) => [file, readFileSync(file, "utf8")]));
    expect(ioImportsIn("rest", files)).toEqual([]);
  });

  it("catches an I/O import in src/domain when one appears", () => {
    const rule = path.join(SRC, "domain", "rule.ts");
    const imports = [
      'import type { PrismaClient } from "../db/generated/prisma/client.js";',
      'import { OrderStatus } from "../db/generated/prisma/enums.js";',
      'import type { Database } from "../db/database.js";',
      'import { Pool } from "pg";',
      'import { lookup } from "node:dns";',
      'import { isIP } from "node:net";',
      'import { createHash } from "node:crypto";',
    ].join("\n");
    expect(ioImportsIn("domain", new Map([[rule, imports]]))).toEqual([
      "src/domain/rule.ts -> src/db/generated/prisma/client.ts",
      "src/domain/rule.ts -> src/db/database.ts",
      "src/domain/rule.ts -> pg",
      "src/domain/rule.ts -> node:dns",
      "src/domain/rule.ts -> node:net",
    ]);
    expect(ioImportsIn("domain", new Map([[path.join(SRC, "services", "x.ts"), imports]]))).toEqual([]);
  });

  it("catches an upward import and a cycle when one appears", () => {
    const db = path.join(SRC, "db", "database.ts");
    const schema = path.join(SRC, "schema", "index.ts");
    expect(ruleBroken(db, schema)).toBe("points up");
    expect(ruleBroken(path.join(SRC, "rest", "x.ts"), path.join(SRC, "graphql", "y.ts"))).toBe(
      "points sideways",
    );
    expect(ruleBroken(path.join(SRC, "http", "x.ts"), path.join(SRC, "rest", "y.ts"))).toBe("points up");
    expect(ruleBroken(schema, db)).toBeNull();
    expect(
      cycles(
        new Map([
          [db, [schema]],
          [schema, [db]],
        ]),
      ),
    ).toHaveLength(1);
  });
});
