// Prisma reads a relation it joins (relationJoins) as one JSON value per
// parent row, built by PostgreSQL's JSONB_BUILD_OBJECT: a numeric(20,6)
// column arrives there as a JSON number, which JSON.parse rounds past 15
// significant digits (-99999999999999.999999 becomes -100000000000000).
// This wrapper rewrites such a number as a JSON string of its digits before
// Prisma parses it; Prisma maps a string to a Decimal (or a BigInt, a float)
// as it maps a plain column's value, so every stored digit survives.
import {
  ColumnTypeEnum,
  type SqlDriverAdapterFactory,
  type SqlQueryable,
} from "@prisma/driver-adapter-utils";

/** Sixteen characters of digits and a point: the only texts that can hold a number a double would round. */
const LONG_NUMBER = /\d[\d.]{15}/;
/** A double keeps every digit of a decimal number of at most this many significant digits. */
const EXACT_DIGITS = 15;

/** The significant digits of a JSON number's text: "-0.000120" has 2, "99999999999999.999999" has 20. */
function significantDigits(source: string): number {
  const mantissa = source.replace(/^-/, "").replace(/e.*$/i, "").replace(".", "");
  return mantissa.replace(/^0+/, "").replace(/0+$/, "").length;
}

interface ParseContext {
  source?: string;
}

/** `json` with each number a double would round written as a string of its digits; other texts unchanged. */
export function exactJsonNumbers(json: string): string {
  if (!LONG_NUMBER.test(json)) return json;
  let rewritten = false;
  const value: unknown = JSON.parse(json, (_key, parsed: unknown, context?: ParseContext) => {
    const source = context?.source;
    if (typeof parsed !== "number" || source === undefined || significantDigits(source) <= EXACT_DIGITS) {
      return parsed;
    }
    rewritten = true;
    return source;
  });
  return rewritten ? JSON.stringify(value) : json;
}

/** Every JSON column of `queryable`'s results read with exactJsonNumbers. */
function exactQueries<Queryable extends SqlQueryable>(queryable: Queryable): Queryable {
  const queryRaw = queryable.queryRaw.bind(queryable);
  queryable.queryRaw = async (query) => {
    const result = await queryRaw(query);
    result.columnTypes.forEach((type, column) => {
      if (type !== ColumnTypeEnum.Json) return;
      for (const row of result.rows) {
        const text = row[column];
        if (typeof text === "string") row[column] = exactJsonNumbers(text);
      }
    });
    return result;
  };
  return queryable;
}

/** `factory`, whose connections (and their transactions) read JSON columns with exactJsonNumbers. */
export function withExactJsonNumbers<Factory extends SqlDriverAdapterFactory>(factory: Factory): Factory {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = exactQueries(await connect());
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => exactQueries(await startTransaction(isolationLevel));
    return adapter;
  };
  return factory;
}
