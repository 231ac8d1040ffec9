// An operation's selection as execution collects it (graphql-js's
// `collectFields`), for the planner, which reads fields only: each fragment
// spread and inline fragment whose type condition holds is put in place of
// itself, and each selection `@skip`/`@include` leaves out is dropped. What
// is left is merged by response key where it is planned (`fieldsOf`), in the
// order execution writes the keys. Below an abstract type, which fragment
// applies depends on each value's type: that selection is left as it is, and
// the planner refuses it.
import {
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isObjectType,
  Kind,
  type NamedTypeNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  visit,
} from "graphql";
import { PlanError } from "./writers.js";

/**
 * The request's variables, coerced (graphql-js `getVariableValues`), that
 * `@skip`/`@include` conditions read; null when planning without a request
 * (the startup log): every conditional selection is then taken as included.
 */
export type ConditionValues = Readonly<Record<string, unknown>> | null;

const CONDITIONS = new Set(["skip", "include"]);

/** The names of the variables any `@skip`/`@include` of `document` reads, each once, in the document's order. */
export function conditionVariables(document: DocumentNode): readonly string[] {
  const names = new Set<string>();
  visit(document, {
    Directive(directive) {
      if (!CONDITIONS.has(directive.name.value)) return;
      for (const argument of directive.arguments ?? [])
        if (argument.value.kind === Kind.VARIABLE) names.add(argument.value.name.value);
    },
  });
  return [...names];
}

/** `operation` with its selection collected as execution collects it for `conditions`: fields only, where decidable. */
export function collectedOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operation: OperationDefinitionNode,
  conditions: ConditionValues,
): OperationDefinitionNode {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const root = schema.getRootType(operation.operation);
  if (!root) throw new PlanError(`the schema has no ${operation.operation} type`, "operation");
  const collect = (selectionSet: SelectionSetNode, type: GraphQLNamedType | undefined): SelectionSetNode =>
    isObjectType(type)
      ? { kind: Kind.SELECTION_SET, selections: fieldsIn(selectionSet, type) }
      : selectionSet;

  function fieldsIn(selectionSet: SelectionSetNode, type: GraphQLObjectType): FieldNode[] {
    const fields: FieldNode[] = [];
    const add = (set: SelectionSetNode) => {
      for (const selection of set.selections) {
        if (!included(selection.directives, conditions)) continue;
        if (selection.kind === Kind.FIELD) {
          const field = type.getFields()[selection.name.value];
          const directives = selection.directives?.filter((node) => !CONDITIONS.has(node.name.value));
          fields.push({
            ...selection,
            directives,
            selectionSet:
              selection.selectionSet && collect(selection.selectionSet, field && getNamedType(field.type)),
          });
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          if (applies(schema, selection.typeCondition, type)) add(selection.selectionSet);
        } else {
          const fragment = fragments.get(selection.name.value);
          if (!fragment) throw new PlanError(`the fragment ${selection.name.value} is not defined`);
          if (applies(schema, fragment.typeCondition, type)) add(fragment.selectionSet);
        }
      }
    };
    add(selectionSet);
    return fields;
  }

  return { ...operation, selectionSet: collect(operation.selectionSet, root) };
}

/** Whether a fragment of `condition` (none: the parent's type) applies to a value of `type`, as execution decides. */
function applies(
  schema: GraphQLSchema,
  condition: NamedTypeNode | undefined,
  type: GraphQLObjectType,
): boolean {
  if (!condition) return true;
  const conditionType = schema.getType(condition.name.value);
  if (conditionType === type) return true;
  return isAbstractType(conditionType) && schema.isSubType(conditionType, type);
}

/** Whether `@skip`/`@include` keep a selection: not skipped, and included. */
function included(directives: readonly DirectiveNode[] | undefined, conditions: ConditionValues): boolean {
  for (const directive of directives ?? []) {
    const name = directive.name.value;
    if (!CONDITIONS.has(name)) continue;
    const value = directive.arguments?.find((argument) => argument.name.value === "if")?.value;
    const holds =
      value?.kind === Kind.BOOLEAN
        ? value.value
        : value?.kind === Kind.VARIABLE
          ? conditions === null
            ? name === "include"
            : conditions[value.name.value] === true
          : undefined;
    if (holds === undefined) throw new PlanError(`@${name} has no condition it can read`);
    if ((name === "skip") === holds) return false;
  }
  return true;
}
