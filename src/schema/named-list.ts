// The root lists of the buyer's named records (tags, tag groups, suppliers):
// each sorts by name as well as by creation, update and id, and searches by
// name with `query`.
import type { ObjectRef } from "@pothos/core";
import type { Viewer } from "../auth/viewer.js";
import type { SchemaTypes } from "./builder.js";
import { allOf, containsWord } from "./conditions.js";
import { rootConnection, sortKeysEnum } from "./connection-fields.js";
import type { Connection } from "./connection-types.js";
import { listFilters, textFilter } from "./list-filters.js";
import { parseListQuery } from "./list-query.js";
import { BY_ID, byName, UPDATED_AT } from "./sort-keys.js";

export interface NamedRootConnectionOptions<Node> {
  type: ObjectRef<SchemaTypes, Connection<Node>>;
  model: "Tag" | "TagGroup" | "Supplier";
  /** What the list holds, to begin its description: "The buyer's tags". */
  listed: string;
  /** The rows of the calling buyer. */
  where: (viewer: Viewer) => object;
}

/** `name:Gly*` and bare words, on the `name` of tags, tag groups and suppliers. */
const NAME_FILTERS = listFilters({
  filters: [
    textFilter(["name"], { name: "name", description: "name: `Gly*` a prefix (any case), `Glycerin` exact" }),
  ],
  word: containsWord("name"),
});

const NAME_QUERY_DESCRIPTION =
  "Search terms: `name:Gly*` a name prefix (any case), `name:Glycerin` an exact name, or bare words the name contains (any case).";

export function namedRootConnection<Node>(
  t: PothosSchemaTypes.QueryFieldBuilder<SchemaTypes, Record<string, never>>,
  { type, model, listed, where }: NamedRootConnectionOptions<Node>,
) {
  return rootConnection(t, {
    type,
    model,
    sort: sortKeysEnum(model, { NAME: byName("Name, ascending."), UPDATED_AT, ID: BY_ID }),
    args: { query: t.arg.string({ description: NAME_QUERY_DESCRIPTION }) },
    narrow: ({ query }, problems) =>
      allOf((query ? parseListQuery(query, NAME_FILTERS.grammar, problems) : null) ?? []),
    where,
    description: `${listed}, newest first (creation time, then id) unless \`sortKey\`/\`reverse\` say otherwise; \`query\` searches by name.`,
  });
}
