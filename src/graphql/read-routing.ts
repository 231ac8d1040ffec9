import { getOperationAST, Kind, type OperationDefinitionNode, parse } from "graphql";
import { routes } from "../contract/routes.js";

/**
 * Root query fields whose data changes without a change log entry (webhook
 * endpoints, deliveries, events): those the contract's unversioned GET routes
 * read. A query asking for one reads on the primary.
 */
export const UNVERSIONED_ROOT_FIELDS: ReadonlySet<string> = new Set(
  routes
    .filter((route) => route.method === "GET" && route.versioned === false)
    .flatMap((route) => rootFieldsOf(getOperationAST(parse(route.document))?.selectionSet.selections ?? [])),
);

function rootFieldsOf(selections: OperationDefinitionNode["selectionSet"]["selections"]): string[] {
  return selections.flatMap((selection) => (selection.kind === Kind.FIELD ? [selection.name.value] : []));
}

/**
 * Whether a query reads only data the buyer's version covers, so that a
 * replica that has replayed that version may answer it. Fragments at the
 * root are not looked into: such a query reads on the primary.
 */
export function readsOnlyVersionedData(query: OperationDefinitionNode): boolean {
  return query.selectionSet.selections.every(
    (selection) => selection.kind === Kind.FIELD && !UNVERSIONED_ROOT_FIELDS.has(selection.name.value),
  );
}
