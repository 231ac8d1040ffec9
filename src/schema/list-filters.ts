// A root list's filters, each declared once as one of a few kinds of
// condition (one of a column's values, a day range, a flag, a related row, a
// text match), with the `filter` input fields and the `query:` key that give
// it values. From that declaration come the GraphQL input fields, the
// `query:` grammar, the Prisma `where` of normal execution, the planner's SQL
// for the same condition (src/schema/conditions.ts) and the REST query
// parameters, whose reading and errors follow from the input fields' GraphQL
// types (src/rest).
import type { InputFieldRef, InputObjectRef, InputTypeParam } from "@pothos/core";
import type { FieldProblem } from "../domain/errors.js";
import { builder, type SchemaTypes } from "./builder.js";
import { inRange, isOneOf, isValue, related, textMatches } from "./conditions.js";
import { inclusiveDays } from "./day-range.js";
import { type NodeTypeName, takesIdsOf } from "./global-ids.js";
import { dayRange, enumValuesIn, grammarSummary, type QueryGrammar, uuidsIn, yesNo } from "./list-query.js";

/** How REST documents a filter field's query parameter; a field without one is not a REST parameter. */
export interface RestParameterDoc {
  /** Said after the GraphQL description of what it feeds. */
  description?: string;
  /** Absent when the route table gives it (the contract's example ids). */
  example?: string | string[];
}

/** A REST query parameter feeding a filter field, as the route table writes one (src/contract/route.ts). */
export interface FilterParameter {
  name: string;
  to: string;
  description?: string;
  example: string | string[];
}

/** One input field of a list's `filter`. */
export interface FilterField {
  type: InputTypeParam<SchemaTypes>;
  description: string;
  extensions?: Record<string, unknown>;
  rest?: RestParameterDoc;
}

/** A key of the list's `query:` grammar. */
export interface FilterKey {
  name: string;
  /** One line for the argument's description and the error listing the known keys. */
  description: string;
}

/** One filter of a list: its fields and key, and the condition their values mean. */
export interface ListFilter {
  /** Input fields of the list's `filter`, by GraphQL name. */
  readonly fields: Readonly<Record<string, FilterField>>;
  /** The condition of the fields' values; null when none is given. Bad values go into `problems`. */
  readonly fromInput: (values: Readonly<Record<string, unknown>>, problems: FieldProblem[]) => object | null;
  readonly key?: FilterKey & { fromText: (text: string) => object | string };
}

// Kinds of filter.

/** An input field, with or without a REST parameter. */
export interface FieldOptions {
  name: string;
  description: string;
  rest?: RestParameterDoc;
}

/** A column holding one of a GraphQL enum's values: `[Enum]` as a field, comma-separated names as a key. */
export function enumFilter(
  column: string,
  options: {
    type: InputTypeParam<SchemaTypes>;
    /** The values the column stores, for the key's text. */
    stored: readonly string[];
    field?: FieldOptions;
    key?: FilterKey;
  },
): ListFilter {
  const { field, key } = options;
  return {
    fields: field
      ? {
          [field.name]: {
            type: [options.type] as InputTypeParam<SchemaTypes>,
            description: field.description,
            rest: field.rest,
          },
        }
      : {},
    fromInput: (values) => {
      const chosen = field ? values[field.name] : undefined;
      return Array.isArray(chosen) && chosen.length > 0 ? isOneOf(column, chosen) : null;
    },
    ...(key && {
      key: {
        ...key,
        fromText: (text: string) => {
          const chosen = enumValuesIn(options.stored, text);
          return typeof chosen === "string" ? chosen : isOneOf(column, chosen);
        },
      },
    }),
  };
}

/**
 * A column holding one of a set of texts: `[String]` as a field, each value
 * checked against `allowed` (a problem names the values allowed).
 */
export function textValueFilter(
  column: string,
  options: {
    allowed: readonly string[];
    field: FieldOptions;
    extensions?: Record<string, unknown>;
    refusal: string;
  },
): ListFilter {
  const { field, allowed } = options;
  return {
    fields: {
      [field.name]: {
        type: ["String"],
        description: field.description,
        extensions: options.extensions,
        rest: field.rest,
      },
    },
    fromInput: (values, problems) => {
      const chosen = values[field.name];
      if (!Array.isArray(chosen) || chosen.length === 0) return null;
      chosen.forEach((value, index) => {
        if (!allowed.includes(String(value)))
          problems.push({ path: ["filter", field.name, index], code: "invalid", message: options.refusal });
      });
      return isOneOf(column, chosen);
    },
  };
}

/**
 * A column holding the id of a record of `type`: a UUID field (a list, or one
 * id when `single`) taking global IDs too, and comma-separated ids as a key.
 */
export function idFilter(
  column: string,
  type: NodeTypeName,
  options: { field?: FieldOptions & { single?: true }; key?: FilterKey },
): ListFilter {
  const { field, key } = options;
  return {
    fields: field
      ? {
          [field.name]: {
            type: field.single ? "UUID" : ["UUID"],
            description: field.description,
            extensions: takesIdsOf(type),
            rest: field.rest,
          },
        }
      : {},
    fromInput: (values) => {
      const chosen = field ? values[field.name] : undefined;
      if (typeof chosen === "string") return isValue(column, chosen);
      return Array.isArray(chosen) && chosen.length > 0 ? isOneOf(column, chosen) : null;
    },
    ...(key && {
      key: {
        ...key,
        fromText: (text: string) => {
          const ids = uuidsIn(text, type);
          return typeof ids === "string" ? ids : isOneOf(column, ids);
        },
      },
    }),
  };
}

/**
 * A time column within whole UTC days, both ends included: a pair of `Date`
 * fields (an end before the start is a problem of the first), and a day or
 * `FROM..TO` as a key.
 */
export function dayFilter(
  column: string,
  options: { from?: FieldOptions; to?: FieldOptions; key?: FilterKey },
): ListFilter {
  const { from, to, key } = options;
  const dateField = (field: FieldOptions): FilterField => ({
    type: "Date",
    description: field.description,
    rest: field.rest,
  });
  return {
    fields: {
      ...(from && { [from.name]: dateField(from) }),
      ...(to && { [to.name]: dateField(to) }),
    },
    fromInput: (values, problems) => {
      const start = from ? values[from.name] : undefined;
      const end = to ? values[to.name] : undefined;
      const first = start instanceof Date ? start : null;
      const last = end instanceof Date ? end : null;
      if (first && last && first > last && from) {
        problems.push({
          path: ["filter", from.name],
          code: "invalid",
          message: "must not be later than the end date",
        });
      }
      return first || last ? inRange(column, inclusiveDays(first, last)) : null;
    },
    ...(key && {
      key: {
        ...key,
        fromText: (text: string) => {
          const range = dayRange(text);
          return typeof range === "string" ? range : inRange(column, range);
        },
      },
    }),
  };
}

/** A boolean column: true or false as a field. */
export function flagFilter(column: string, field: FieldOptions): ListFilter {
  return {
    fields: { [field.name]: { type: "Boolean", description: field.description, rest: field.rest } },
    fromInput: (values) => {
      const chosen = values[field.name];
      return typeof chosen === "boolean" ? isValue(column, chosen) : null;
    },
  };
}

/** Whether a list relation has rows: a Boolean field, and `yes`/`no` as a key. */
export function hasRelatedFilter(
  relation: string,
  options: { field?: FieldOptions; key?: FilterKey },
): ListFilter {
  const { field, key } = options;
  return {
    fields: field
      ? { [field.name]: { type: "Boolean", description: field.description, rest: field.rest } }
      : {},
    fromInput: (values) => {
      const chosen = field ? values[field.name] : undefined;
      return typeof chosen === "boolean" ? related(relation, chosen) : null;
    },
    ...(key && {
      key: {
        ...key,
        fromText: (text: string) => {
          const has = yesNo(text);
          return typeof has === "string" ? has : related(relation, has);
        },
      },
    }),
  };
}

/** Some row of a list relation has one of an enum's values in `column`: `[Enum]` as a field. */
export function relatedEnumFilter(
  relation: string,
  column: string,
  options: { type: InputTypeParam<SchemaTypes>; field: FieldOptions },
): ListFilter {
  const { field } = options;
  return {
    fields: {
      [field.name]: {
        type: [options.type] as InputTypeParam<SchemaTypes>,
        description: field.description,
        rest: field.rest,
      },
    },
    fromInput: (values) => {
      const chosen = values[field.name];
      return Array.isArray(chosen) && chosen.length > 0
        ? related(relation, true, isOneOf(column, chosen))
        : null;
    },
  };
}

/** Text columns, one of which matches: `PO-1*` a prefix (any case), `PO-17` exact, as a key. */
export function textFilter(columns: readonly string[], key: FilterKey): ListFilter {
  return {
    fields: {},
    fromInput: () => null,
    key: { ...key, fromText: (text) => textMatches(columns, text) },
  };
}

// A list's filters.

export interface ListFiltersOptions {
  /** The `filter` input type's name and description; absent when the list takes `query` alone. */
  input?: { name: string; description: string };
  /** The filters, in the order the `query:` keys are listed. */
  filters: readonly ListFilter[];
  /** What a bare word of `query` matches; absent when it takes only key:value terms. */
  word?: (word: string) => object | string;
}

type FilterInputRef = InputObjectRef<SchemaTypes, Record<string, unknown>>;

export interface ListFilters<Input extends FilterInputRef | undefined = FilterInputRef | undefined> {
  /** The `filter` input type, when the list has one. */
  readonly input: Input;
  readonly grammar: QueryGrammar;
  /** The conditions of a `filter` argument's fields; bad values go into `problems`. */
  filterWhere(
    filter: Readonly<Record<string, unknown>> | null | undefined,
    problems: FieldProblem[],
  ): object[];
  /**
   * The REST query parameters feeding the fields named (in REST's spelling),
   * in that order, each with what the route adds to its declaration.
   */
  restParameters(parameters: Readonly<Record<string, RestParameterDoc>>): FilterParameter[];
  /** `key:` names of the grammar, for the `query` argument's description. */
  readonly keysSummary: string;
}

const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

export function listFilters(
  options: ListFiltersOptions & Required<Pick<ListFiltersOptions, "input">>,
): ListFilters<FilterInputRef>;
export function listFilters(options: ListFiltersOptions): ListFilters;
export function listFilters(options: ListFiltersOptions): ListFilters {
  const { filters, word } = options;
  const fields = Object.fromEntries(filters.flatMap((filter) => Object.entries(filter.fields)));
  const input =
    options.input &&
    builder.inputType(options.input.name, {
      description: options.input.description,
      fields: (t) =>
        Object.fromEntries(
          Object.entries(fields).map(([name, field]): [string, InputFieldRef<SchemaTypes, unknown>] => [
            name,
            t.field({
              type: field.type,
              description: field.description,
              ...(field.extensions && { extensions: field.extensions }),
            }),
          ]),
        ),
    });
  const grammar: QueryGrammar = {
    keys: Object.fromEntries(
      filters.flatMap(({ key }) =>
        key ? [[key.name, { description: key.description, toWhere: key.fromText }]] : [],
      ),
    ),
    word: word ?? null,
  };
  return {
    input: input as FilterInputRef | undefined,
    grammar,
    keysSummary: grammarSummary(grammar),
    filterWhere: (filter, problems) =>
      filter ? filters.flatMap((declared) => declared.fromInput(filter, problems) ?? []) : [],
    restParameters: (parameters) =>
      Object.entries(parameters).map(([name, added]) => {
        const entry = Object.entries(fields).find(([fieldName]) => snakeCase(fieldName) === name);
        const rest = entry?.[1].rest && { ...entry[1].rest, ...added };
        if (rest?.example === undefined) throw new Error(`no filter field with a REST parameter ${name}`);
        const { description, example } = rest;
        return { name, to: `filter.${name}`, ...(description === undefined ? {} : { description }), example };
      }),
  };
}
