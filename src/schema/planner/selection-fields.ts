// The fields of a selection as execution writes them: by response key, in
// order, a key selected twice merged into one field.
import { type FieldNode, Kind, print, type SelectionSetNode } from "graphql";
import { PlanError } from "./writers.js";

/**
 * The fields of a selection by response key, in the order execution writes
 * them: a key selected twice is one field, its selections merged, as
 * execution merges them (validation has made them the same field).
 */
export function fieldsOf(selectionSet: SelectionSetNode | undefined): FieldNode[] {
  const byKey = new Map<string, FieldNode>();
  for (const selection of selectionSet?.selections ?? []) {
    // A GraphQL document's fragments are put in place before (collected-selection.ts), where decidable.
    if (selection.kind !== Kind.FIELD) throw new PlanError("it uses a fragment on an abstract type");
    const key = selection.alias?.value ?? selection.name.value;
    const known = byKey.get(key);
    byKey.set(key, known ? merged(known, selection) : selection);
  }
  return [...byKey.values()];
}

/** A field's arguments as one text, in any order: what makes two selections of a key the same field. */
const argumentsText = (node: FieldNode) => (node.arguments ?? []).map(print).sort().join(",");

/**
 * Two selections of one response key as one. Validation lets a key stand
 * only for one field with the same arguments; anything else is not planned.
 */
function merged(known: FieldNode, again: FieldNode): FieldNode {
  if (known.name.value !== again.name.value || argumentsText(known) !== argumentsText(again))
    throw new PlanError(`${known.name.value} is selected twice as different fields`);
  const selections = [...(known.selectionSet?.selections ?? []), ...(again.selectionSet?.selections ?? [])];
  return {
    ...known,
    // Any directive of either is refused where the field is planned.
    directives: [...(known.directives ?? []), ...(again.directives ?? [])],
    selectionSet: known.selectionSet && { ...known.selectionSet, selections },
  };
}
