// Fields whose value a pure function computes from columns
// (field-reads.ts `readsComputed`): each column read as Prisma reads it,
// the function's value written as graphql-js serializes it.
import { type GraphQLLeafType, isEnumType } from "graphql";
import type { ScalarColumn } from "../../db/data-model.js";
import { exactJsonNumbers } from "../../db/exact-json-numbers.js";
import * as prismaEnums from "../../db/generated/prisma/enums.js";
import { contractSpelling } from "../../domain/contract-vocabulary.js";
import { isoTime, type OutputSpelling, PlanError, RowValueError, type Writer, writerOf } from "./writers.js";

/**
 * A column's value as Prisma reads it, from its text (`textOf`): what a
 * computed field's function is given in normal execution. Types no field
 * computes from are refused.
 */
export function prismaValueReader(column: ScalarColumn): (text: string | null) => unknown {
  if (column.isList) throw new PlanError(`${column.name} is a list, which no field computes from`);
  const read = textReader(column);
  return (text) => (text === null ? null : read(text));
}

function textReader(column: ScalarColumn): (text: string) => unknown {
  if (column.isEnum) {
    const values: Readonly<Record<string, unknown>> | undefined = Reflect.get(prismaEnums, column.type);
    const byLabel = new Map<string, string>();
    for (const value of Object.values(values ?? {}))
      if (typeof value === "string") byLabel.set(contractSpelling(value), value);
    return (label) => {
      const value = byLabel.get(label);
      if (value === undefined) throw new RowValueError(`${label} is no value of ${column.type}`);
      return value;
    };
  }
  switch (column.type) {
    case "String":
      return (text) => text;
    case "Int":
      return Number;
    case "Boolean":
      return (text) => text === "t" || text === "true";
    case "DateTime":
      return (text) => new Date(isoTime(text));
    case "Json":
      // As the database's Prisma adapter hands a JSON column to Prisma (src/db/exact-json-numbers.ts).
      return (text) => {
        try {
          return JSON.parse(exactJsonNumbers(text)) as unknown;
        } catch {
          throw new RowValueError(`${column.name} holds no JSON text`);
        }
      };
    default:
      throw new PlanError(`${column.name} is a ${column.type}, which no field computes from`);
  }
}

/**
 * The JSON text of a value a field computed, by the leaf type it is answered
 * as, as graphql-js serializes it (an enum by its value's name), in `spelling`.
 */
export function leafEncoder(type: GraphQLLeafType, spelling: OutputSpelling): (value: unknown) => string {
  if (isEnumType(type)) {
    const byValue = new Map<unknown, string>();
    for (const value of type.getValues()) byValue.set(value.value, spelling.enumValue(type, value));
    return (value) => {
      const text = byValue.get(value);
      if (text === undefined) throw new RowValueError(`${String(value)} is no value of ${type.name}`);
      return text;
    };
  }
  return (value) => {
    let serialized: unknown;
    try {
      serialized = type.serialize(value);
    } catch (error) {
      throw new RowValueError(`${type.name} cannot serialize a computed value: ${String(error)}`);
    }
    if (serialized === null || serialized === undefined)
      throw new RowValueError(`${type.name} serializes a computed value as nothing`);
    if (type.name === "Decimal" && typeof serialized === "string") return spelling.decimal(serialized);
    return JSON.stringify(serialized);
  };
}

/** The value `compute` makes of `columns`' values, each read by its reader, written by `encode`. */
export function computedWriter(
  columns: readonly { key: number; read: (text: string | null) => unknown }[],
  compute: (values: readonly unknown[]) => unknown,
  encode: (value: unknown) => string,
): Writer {
  return writerOf((row, _request, out) => {
    const values = columns.map(({ key, read }) => {
      const text = row[key];
      return read(typeof text === "string" ? text : null);
    });
    let value: unknown;
    try {
      value = compute(values);
    } catch (error) {
      // Execution answers the field's error as it words it.
      throw new RowValueError(`a computed value failed: ${String(error)}`);
    }
    out.add(encode(value));
  });
}
