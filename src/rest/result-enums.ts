import {
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { enumSpelling } from "./rest-spelling.js";

/**
 * Where in a result enum values sit, by response key, so that only those
 * places are visited to put them in the contract's spelling.
 */
export type EnumPlan = Map<string, { spelling?: Map<string, string>; children?: EnumPlan }>;

export function buildEnumPlan(schema: GraphQLSchema, operation: OperationDefinitionNode): EnumPlan {
  const root = schema.getRootType(operation.operation);
  if (!root) throw new Error(`The schema has no ${operation.operation} type`);
  return planSelection(root, operation.selectionSet);
}

function planSelection(parent: GraphQLObjectType, selectionSet: SelectionSetNode): EnumPlan {
  const plan: EnumPlan = new Map();
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.INLINE_FRAGMENT) {
      for (const [key, entry] of planSelection(parent, selection.selectionSet)) plan.set(key, entry);
      continue;
    }
    if (selection.kind !== Kind.FIELD) throw new Error("REST documents use fields and inline fragments only");
    const field = parent.getFields()[selection.name.value];
    if (!field) continue;
    const key = selection.alias?.value ?? selection.name.value;
    const named = getNamedType(field.type);
    if (isEnumType(named)) {
      plan.set(key, { spelling: enumSpelling(named).toContract });
    } else if (isObjectType(named) && selection.selectionSet) {
      const children = planSelection(named, selection.selectionSet);
      if (children.size > 0) plan.set(key, { children });
    }
  }
  return plan;
}

/** Rewrites enum values in `data` (in place) to the contract's spelling. */
export function applyEnumPlan(data: unknown, plan: EnumPlan): void {
  if (Array.isArray(data)) {
    for (const item of data) applyEnumPlan(item, plan);
    return;
  }
  if (typeof data !== "object" || data === null) return;
  const record = data as Record<string, unknown>;
  for (const [key, entry] of plan) {
    const value = record[key];
    if (entry.spelling) {
      const spelling = entry.spelling;
      record[key] = Array.isArray(value)
        ? value.map((item) => spelling.get(item as string) ?? item)
        : typeof value === "string"
          ? (spelling.get(value) ?? value)
          : value;
    } else if (entry.children) {
      applyEnumPlan(value, entry.children);
    }
  }
}
