// What a planned statement's SQL is written with: quoted identifiers, the
// tables it reads and their aliases, and its parameters. Conditions and
// orders come with their own SQL (src/schema/conditions.ts), written with
// this. Every value becomes a bound parameter: no value is ever written into
// SQL text.
import type { DataModel, ModelTable, ScalarColumn } from "../../db/data-model.js";

/** A condition or value the planned SQL cannot hold: the read runs on normal execution instead. */
export class UntranslatableError extends Error {
  override readonly name = "UntranslatableError";
}

/** `"name"`: identifiers come from the data model, never from a request. */
export function quoted(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}

/** A table of the statement: its model and alias. */
export interface TableRef {
  model: ModelTable;
  alias: string;
}

export function columnSql(table: TableRef, column: ScalarColumn): string {
  return `${quoted(table.alias)}.${quoted(column.column)}`;
}

/**
 * What a statement's SQL is written with: its parameters, fresh table aliases,
 * and how enum values are stored. Parameters are sent untyped: PostgreSQL
 * infers each from the column it meets, on PGlite (through Prisma) and
 * PostgreSQL (through pg) alike, which take arrays only as array literals.
 */
export class SqlWriter {
  readonly values: (string | null)[] = [];
  /** The tables of the models this writer's SQL reads. */
  readonly tables = new Set<string>();
  private aliases: number;

  constructor(
    readonly dataModel: DataModel,
    /** The database's label of an enum value as Prisma spells it. */
    private readonly enumLabel: (value: string) => string,
    /** What was written before, in the same statement: its parameters and aliases, numbered on from there. */
    before?: SqlWriter,
  ) {
    this.offset = before ? before.offset + before.values.length : 0;
    this.aliases = before?.aliases ?? 0;
  }

  private readonly offset: number;

  bind(value: string | null): string {
    this.values.push(value);
    return `$${this.offset + this.values.length}`;
  }

  alias(): string {
    const alias = `t${this.aliases}`;
    this.aliases += 1;
    return alias;
  }

  model(name: string): ModelTable {
    const model = this.dataModel.get(name);
    if (!model) throw new UntranslatableError(`no table for the model ${name}`);
    this.tables.add(model.table);
    return model;
  }

  /** A value of `column` as its parameter text. */
  valueText(column: ScalarColumn, value: unknown): string {
    if (column.isEnum && typeof value === "string") return this.enumLabel(value);
    if (value instanceof Date) return timestampText(value);
    switch (typeof value) {
      case "string":
        return value;
      case "number":
      case "bigint":
        return String(value);
      case "boolean":
        return value ? "true" : "false";
      default:
        if (isDecimal(value)) return value.toFixed();
        throw new UntranslatableError(`a value of ${column.name} that is not a scalar`);
    }
  }

  /** A PostgreSQL array literal of values of `column`, as one parameter. */
  arrayText(column: ScalarColumn, values: unknown): string {
    if (!Array.isArray(values)) throw new UntranslatableError(`${column.name}: a list was expected`);
    const items = values.map((value) => `"${this.valueText(column, value).replace(/["\\]/g, "\\$&")}"`);
    return `{${items.join(",")}}`;
  }
}

/** A time as PostgreSQL reads it: ISO 8601, with a year past 9999 (the day after the last day a filter takes) unsigned. */
function timestampText(time: Date): string {
  const text = time.toISOString();
  if (text.startsWith("+")) return text.slice(1).replace(/^0+(?=\d{5})/, "");
  if (text.startsWith("-")) throw new UntranslatableError("a time before the year 1");
  return text;
}

function isDecimal(value: unknown): value is { toFixed(): string } {
  return (
    typeof value === "object" && value !== null && "toFixed" in value && typeof value.toFixed === "function"
  );
}

/** The column of `table` named `name`. */
export function scalarColumn(table: TableRef, name: string): ScalarColumn {
  const field = table.model.fields.get(name);
  if (field?.kind !== "scalar" || field.isList)
    throw new UntranslatableError(`${table.model.name} has no column ${name}`);
  return field;
}
