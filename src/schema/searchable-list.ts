// The root lists of the buyer's business records (orders, buyer products,
// approvals): sorted by their own keys, narrowed by a `filter` input and by
// `query` search terms, both at once when both are given.
import type { InputObjectRef, ObjectRef } from "@pothos/core";
import type { SchemaTypes } from "./builder.js";
import { allOf, isValue } from "./conditions.js";
import { type RootConnectionOptions, rootConnection, sortKeysEnum } from "./connection-fields.js";
import type { Connection } from "./connection-types.js";
import type { ListFilters } from "./list-filters.js";
import { parseListQuery } from "./list-query.js";
import { BY_ID, type SortKey, UPDATED_AT } from "./sort-keys.js";

export interface SearchableRootConnectionOptions<Node> {
  type: ObjectRef<SchemaTypes, Connection<Node>>;
  model: RootConnectionOptions<Node, never>["model"];
  /** The list's own sort keys, beside CREATED_AT, UPDATED_AT and ID. */
  sortKeys: Record<string, SortKey>;
  /** What the list holds, to begin its description: "The buyer's orders". */
  listed: string;
  /** The `filter` input and `query`'s keys and bare words. */
  filters: ListFilters<InputObjectRef<SchemaTypes, Record<string, unknown>>>;
  /** A `query` for the argument's description. */
  example: string;
  /** What a bare word of `query` matches, a sentence for the argument's description. */
  bareWord: string;
}

/** A root list of the buyer's rows with `filter` and `query` arguments. */
export function searchableRootConnection<Node>(
  t: PothosSchemaTypes.QueryFieldBuilder<SchemaTypes, Record<string, never>>,
  options: SearchableRootConnectionOptions<Node>,
) {
  const { type, model, sortKeys, listed, filters, example, bareWord } = options;
  return rootConnection(t, {
    type,
    model,
    sort: sortKeysEnum(model, { UPDATED_AT, ...sortKeys, ID: BY_ID }),
    where: (viewer) => isValue("buyerId", viewer.buyerId),
    description:
      `${listed}, newest first (creation time, then id) unless \`sortKey\`/\`reverse\` say otherwise. ` +
      "`filter` and `query` narrow the list; both may be given, and every condition must hold.",
    args: {
      filter: t.arg({ type: filters.input, description: "Filters." }),
      query: t.arg.string({
        description: `Search terms, e.g. \`${example}\`. Keys: ${filters.keysSummary}. ${bareWord}`,
      }),
    },
    narrow: (args, problems) => {
      // The generic filter shape defeats Pothos' argument typing; these are the two arguments above.
      const { filter, query } = args as { filter?: Record<string, unknown> | null; query?: string | null };
      return allOf([
        ...filters.filterWhere(filter, problems),
        ...((query ? parseListQuery(query, filters.grammar, problems) : null) ?? []),
      ]);
    },
  });
}
