import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import type { Decimal } from "@prisma/client/runtime/client";
import { GraphQLError, GraphQLScalarType } from "graphql";
import { GraphQLDate, GraphQLDateTime } from "graphql-scalars";
import type PrismaTypes from "../db/generated/pothos-types.js";
import { getDatamodel } from "../db/generated/pothos-types.js";
import { isUuid } from "../domain/uuid.js";
import type { GraphQLContext } from "./context.js";
import { domainErrorsPlugin } from "./domain-errors.js";
import { decodeGlobalId, globalIdsPlugin, pendingGlobalId } from "./global-ids.js";
import { wellFormedTextPlugin } from "./well-formed-text.js";

export interface BuilderTypes {
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  DefaultInputFieldRequiredness: false;
  Scalars: {
    UUID: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date };
    Date: { Input: Date; Output: Date };
    Decimal: { Input: never; Output: Decimal | string };
    JSON: { Input: unknown; Output: unknown };
  };
}

/** The resolved Pothos types, for helpers that take refs. */
export type SchemaTypes = PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>;

/** The one schema builder: every domain type registers itself on it. */
export const builder = new SchemaBuilder<BuilderTypes>({
  plugins: [PrismaPlugin, domainErrorsPlugin, globalIdsPlugin, wellFormedTextPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (context) => context.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    onUnusedQuery: process.env.NODE_ENV === "production" ? null : "warn",
  },
});

// Input scalars throw GraphQLError: a plain Error from parseValue would be
// reported as an unexpected server error (INTERNAL, logged with its stack)
// instead of as the client's bad value.

// Stricter than graphql-scalars' UUID, which lets `{…}` and a stray `}` through
// (the database then refuses them): only the canonical 36-character form, in
// either case, read as lower case so that it names the same row as the ids we write.
// An argument also reads a global ID; the globalIds plugin checks its type.
builder.scalarType("UUID", {
  description:
    "A UUID in its canonical 36-character form; written in lower case, read in either case. An argument " +
    "or input field that names a record also takes that record's global ID (`Node.id`); a global ID of a " +
    "type it does not take is refused with VALIDATION_FAILED.",
  serialize: (value) => value,
  parseValue: (value) => {
    if (typeof value === "string" && isUuid(value)) return value.toLowerCase();
    const globalId = typeof value === "string" ? decodeGlobalId(value) : null;
    if (!globalId) throw new GraphQLError("Not a UUID in its canonical 36-character form, nor a global ID");
    return pendingGlobalId(globalId.type, globalId.uuid);
  },
});
// PostgreSQL has no year 0, and the contract writes four-digit years: an input
// outside 0001-01-01 to 9999-12-31 (UTC) is refused instead of failing in SQL.
const EARLIEST_INSTANT = Date.parse("0001-01-01T00:00:00.000Z");
const LATEST_INSTANT = Date.parse("9999-12-31T23:59:59.999Z");

function inFourDigitYears<External>(
  scalar: GraphQLScalarType<Date, External>,
): GraphQLScalarType<Date, External> {
  const check = (date: Date): Date => {
    const time = date.getTime();
    if (!(time >= EARLIEST_INSTANT && time <= LATEST_INSTANT)) {
      throw new GraphQLError(`${scalar.name} must fall in the years 0001 to 9999 (UTC)`);
    }
    return date;
  };
  return new GraphQLScalarType<Date, External>({
    ...scalar.toConfig(),
    parseValue: (value) => check(scalar.parseValue(value)),
    parseLiteral: (ast, variables) => check(scalar.parseLiteral(ast, variables)),
  });
}

builder.addScalarType("DateTime", inFourDigitYears(GraphQLDateTime));
builder.addScalarType("Date", inFourDigitYears(GraphQLDate));

const DECIMAL = /^-?\d+(\.\d+)?$/;

builder.scalarType("Decimal", {
  description:
    'An exact decimal amount (money, quantities) as stored, written as a string of digits ("10340.5", "0.000001") so that no digit is lost to a floating-point number. Read-only in this schema.',
  serialize: (value) => {
    // Prisma's Decimal writes every stored digit without an exponent; a float would round past 15 digits.
    const text = typeof value === "object" ? value.toFixed() : String(value);
    if (!DECIMAL.test(text)) throw new TypeError("Decimal is not a finite decimal number");
    return text;
  },
  parseValue: () => {
    throw new GraphQLError("Decimal values cannot be written");
  },
});

builder.scalarType("JSON", {
  description: "Any JSON value.",
  serialize: (value) => value,
  parseValue: (value) => value,
});

builder.queryType({ description: "Reads, always scoped to the buyer of the API key." });
builder.mutationType({ description: "Writes, always scoped to the buyer of the API key." });
