// An operation's selection as execution collects it (graphql-js's
// `collectFields`), for the planner, which reads fields only: each fragment
// spread and inline fragment whose type condition holds is put in place of
// itself, and each selection `@skip`/`@include` leaves out is dropped. What
// is left is merged by response key where it is planned (`fieldsOf`), in the
// order execution writes the keys. Below an abstract type, which fragment
// applies depends on each value's type: there, fragments are left inline,
// each with its type condition, for `fieldsOfType` to pick per type.
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
  isInterfaceType,
  isObjectType,
  Kind,
  type NamedTypeNode,
  type OperationDefinitionNode,
  type SelectionNode,
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
      : { kind: Kind.SELECTION_SET, selections: abstractIn(selectionSet, type) };

  /**
   * Below an abstract type: the selections `@skip`/`@include` keep, each
   * fragment inline with its type condition (`fieldsOfType` takes those of a
   * value's type), its selection collected for that condition.
   */
  function abstractIn(selectionSet: SelectionSetNode, type: GraphQLNamedType | undefined): SelectionNode[] {
    const selections: SelectionNode[] = [];
    for (const selection of selectionSet.selections) {
      if (!included(selection.directives, conditions)) continue;
      if (selection.kind === Kind.FIELD) {
        const field = isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
        selections.push({
          ...selection,
          directives: withoutConditions(selection.directives),
          selectionSet:
            selection.selectionSet && collect(selection.selectionSet, field && getNamedType(field.type)),
        });
        continue;
      }
      const fragment =
        selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
      if (!fragment) throw new PlanError("a fragment spread names no fragment of the document");
      const condition: NamedTypeNode | undefined =
        fragment.typeCondition ??
        (type && { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: type.name } });
      const conditionType = condition && schema.getType(condition.name.value);
      selections.push({
        kind: Kind.INLINE_FRAGMENT,
        typeCondition: condition,
        directives: [],
        selectionSet: collect(fragment.selectionSet, conditionType ?? undefined),
      });
    }
    return selections;
  }

  function fieldsIn(selectionSet: SelectionSetNode, type: GraphQLObjectType): FieldNode[] {
    const fields: FieldNode[] = [];
    const add = (set: SelectionSetNode) => {
      for (const selection of set.selections) {
        if (!included(selection.directives, conditions)) continue;
        if (selection.kind === Kind.FIELD) {
          const field = type.getFields()[selection.name.value];
          fields.push({
            ...selection,
            directives: withoutConditions(selection.directives),
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

const withoutConditions = (directives: readonly DirectiveNode[] | undefined) =>
  directives?.filter((node) => !CONDITIONS.has(node.name.value));

/**
 * The fields of a value of `type` below an abstract type, in a selection
 * `collectedOperation` made: its fields, and those of each inline fragment
 * that applies to `type`, in order.
 */
export function fieldsOfType(
  schema: GraphQLSchema,
  selectionSet: SelectionSetNode,
  type: GraphQLObjectType,
): FieldNode[] {
  return selectionSet.selections.flatMap((selection): FieldNode[] => {
    if (selection.kind === Kind.FIELD) return [selection];
    if (selection.kind === Kind.INLINE_FRAGMENT && applies(schema, selection.typeCondition, type)) {
      const conditionType = selection.typeCondition && schema.getType(selection.typeCondition.name.value);
      // A fragment on the type itself was collected to fields; one on another abstract type holds fragments still.
      return conditionType === type
        ? selection.selectionSet.selections.filter((node): node is FieldNode => node.kind === Kind.FIELD)
        : fieldsOfType(schema, selection.selectionSet, type);
    }
    return [];
  });
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
