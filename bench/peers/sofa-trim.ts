import { type DocumentNode, type GraphQLSchema, parse, TypeInfo, visit, visitWithTypeInfo } from "graphql";
import type { Plugin } from "graphql-yoga";

/** Field names per object type that any of `documents` selects. */
export function selectedFields(schema: GraphQLSchema, documents: string[]): Map<string, Set<string>> {
  const fields = new Map<string, Set<string>>();
  for (const source of documents) {
    const typeInfo = new TypeInfo(schema);
    visit(
      parse(source),
      visitWithTypeInfo(typeInfo, {
        Field(node) {
          const parent = typeInfo.getParentType();
          if (!parent) return;
          const names = fields.get(parent.name) ?? new Set<string>();
          names.add(node.name.value);
          fields.set(parent.name, names);
        },
      }),
    );
  }
  return fields;
}

/** `document` without the fields `allowed` does not list, and without selections left empty by that. */
export function trimDocument(
  schema: GraphQLSchema,
  document: DocumentNode,
  allowed: Map<string, Set<string>>,
): DocumentNode {
  const typeInfo = new TypeInfo(schema);
  return visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node) {
          const parent = typeInfo.getParentType();
          if (parent && !allowed.get(parent.name)?.has(node.name.value)) return null;
          return undefined;
        },
        leave(node) {
          if (node.selectionSet && node.selectionSet.selections.length === 0) return null;
          return undefined;
        },
      },
      OperationDefinition: {
        leave(node) {
          // Variables of removed fields would be unused; SOFA only sends the ones a caller gave.
          const used = new Set<string>();
          visit(node.selectionSet, {
            Variable(variable) {
              used.add(variable.name.value);
            },
          });
          return {
            ...node,
            variableDefinitions: node.variableDefinitions?.filter((definition) =>
              used.has(definition.variable.name.value),
            ),
          };
        },
      },
    }),
  );
}

/**
 * SOFA selects every field it can reach. On this schema that includes
 * connections inside connections (approval → buyer product → orders →
 * events ...): one page of approvals would load 100 × 100 orders and more,
 * gigabytes in one process. This Yoga plugin trims each generated document,
 * once, to the fields the contract's documents select, so that SOFA's own
 * machinery is what gets measured.
 */
export function trimToContract(schema: GraphQLSchema, documents: string[]): Plugin {
  const allowed = selectedFields(schema, documents);
  const trimmed = new WeakMap<DocumentNode, DocumentNode>();
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      let document = trimmed.get(args.document);
      if (!document) {
        document = trimDocument(schema, args.document, allowed);
        trimmed.set(args.document, document);
      }
      const replacement = document;
      setExecuteFn((executionArgs) => executeFn({ ...executionArgs, document: replacement }));
    },
  };
}
