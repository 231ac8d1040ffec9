// Who talks to the database in SQL: src/services (business operations) and
// src/db (plumbing), and no other module of src/ (docs/design/architecture.md).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { Prisma } from "../../src/db/generated/prisma/client.js";
import { projectRoot } from "../../src/project-root.js";

const SRC = path.join(projectRoot(), "src");

/** The areas that own SQL and transactions. */
const OWNERS = ["services", "db"];

/**
 * Modules that still send SQL of their own, each by name with the reason.
 * Shrinks to nothing; a new entry needs a reason a reviewer accepts.
 */
const NOT_YET_MOVED: ReadonlyMap<string, string> = new Map(
  [
    "keyed-reads.ts",
    "node-read.ts",
    "read-statements.ts",
    "record-batch.ts",
    "relation-page.ts",
    "statement.ts",
  ].map((file) => [
    `src/schema/planner/${file}`,
    "the read planner writes its statements from the schema's metadata, above src/db; " +
      "it moves below the schema with the read engine",
  ]),
);

/** Prisma's raw statements and transactions, on a client or a transaction's client. */
const RAW_OR_TRANSACTION = /\$(?:transaction|queryRaw|queryRawUnsafe|executeRaw|executeRawUnsafe)\b/;

/** `db.transaction(` of src/db's SQL connections. */
const CONNECTION_TRANSACTION = /\.transaction\(/;

/** `<delegate>.<write>(` on a Prisma model's delegate (`prisma.order.update(`, `tx.buyerProduct.createMany(`). */
const PRISMA_WRITE = new RegExp(
  `\\.(?:${Object.values(Prisma.ModelName)
    .map((model) => model[0]?.toLowerCase() + model.slice(1))
    .join(
      "|",
    )})\\s*\\.(?:create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany)\\s*\\(`,
);

/** A string or template whose text is an SQL statement, as this code base writes them (keywords in capitals). */
const SQL_STATEMENT =
  /^\s*\(?\s*(?:SELECT\s|INSERT\s+INTO\s|UPDATE\s+\S+\s+SET\s|DELETE\s+FROM\s|WITH\s+\S+\s+AS\s*\(|LOCK\s+TABLE\s|NOTIFY\s|LISTEN\s)/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === path.join(SRC, "db", "generated") ? [] : sourceFiles(full);
    return entry.name.endsWith(".ts") ? [full] : [];
  });
}

const display = (file: string) => path.relative(projectRoot(), file).split(path.sep).join("/");

/** The texts of the module's string literals and templates (each template's parts joined by a blank). */
function literalTexts(text: string): string[] {
  const source = ts.createSourceFile("module.ts", text, ts.ScriptTarget.Latest, false);
  const texts: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) texts.push(node.text);
    else if (ts.isTemplateExpression(node)) {
      texts.push([node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(" "));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

/** What in a module's text is SQL or a transaction, each kind once: empty for a module that sends none. */
function sqlIn(text: string): string[] {
  const found: string[] = [];
  if (RAW_OR_TRANSACTION.test(text)) found.push("a raw statement or $transaction");
  if (CONNECTION_TRANSACTION.test(text)) found.push("a connection's transaction");
  if (PRISMA_WRITE.test(text)) found.push("a Prisma write");
  if (literalTexts(text).some((literal) => SQL_STATEMENT.test(literal))) found.push("SQL text");
  return found;
}

function ownsSql(file: string): boolean {
  const [area = ""] = path.relative(SRC, file).split(path.sep);
  return OWNERS.includes(area);
}

describe("SQL and transactions", () => {
  it("are sent only by src/services and src/db", () => {
    const outside = sourceFiles(SRC)
      .filter((file) => !ownsSql(file) && !NOT_YET_MOVED.has(display(file)))
      .flatMap((file) => sqlIn(readFileSync(file, "utf8")).map((kind) => `${display(file)}: ${kind}`));
    expect(outside).toEqual([]);
  });

  it("lists as not yet moved only modules that still send SQL", () => {
    const moved = [...NOT_YET_MOVED.keys()].filter(
      (file) => sqlIn(readFileSync(path.join(projectRoot(), file), "utf8")).length === 0,
    );
    expect(moved).toEqual([]);
  });

  it("catches each kind when one appears", () => {
    expect(sqlIn("await prisma.$transaction(async (tx) => work(tx));")).toEqual([
      "a raw statement or $transaction",
    ]);
    expect(sqlIn("await tx.$queryRaw`SELECT 1`;")).toEqual(["a raw statement or $transaction", "SQL text"]);
    expect(sqlIn("await connection.transaction(async (tx) => work(tx));")).toEqual([
      "a connection's transaction",
    ]);
    expect(sqlIn("await context.prisma.supplierUser.create({ data });")).toEqual(["a Prisma write"]);
    expect(sqlIn("await tx.buyerProduct\n  .createMany({ data });")).toEqual(["a Prisma write"]);
    expect(sqlIn('await database.query("DELETE FROM rate_limit_windows WHERE x", []);')).toEqual([
      "SQL text",
    ]);
    // The placeholder is part of the source text under test, not one to fill in.
    // biome-ignore lint/suspicious/noTemplateCurlyInString: source text of a template literal
    expect(sqlIn("const text = `\n  WITH request AS (SELECT ${columns} FROM t)`;")).toEqual(["SQL text"]);
    // Reads through Prisma's model API, and words in prose, are not SQL.
    expect(sqlIn("await context.prisma.order.findMany({ where });")).toEqual([]);
    expect(sqlIn('const help = "Select the orders to update; delete from the list";')).toEqual([]);
    expect(sqlIn("cache.delete(key); hash.update(text);")).toEqual([]);
  });
});
