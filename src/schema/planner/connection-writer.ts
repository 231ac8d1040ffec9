// A connection's JSON text from a page's answer (its nodes' texts, page info
// and count), its fields in the selection's order: a root connection's and a
// connection's below the root alike.
import {
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  getNamedType,
  isObjectType,
  type SelectionSetNode,
} from "graphql";
import type { PageInfoShape, PageRequest } from "../page-window.js";
import { jsonArrayText } from "./json-parts.js";
import { fieldsOf } from "./selection-fields.js";
import { decimalDigits, isoTime, PlanError, type Row } from "./writers.js";

/** What a connection is written from: its nodes' JSON texts, their cursors (null: not selected), its page info, and its count (null: not selected). */
export interface PageAnswer {
  nodes: readonly string[];
  cursors: readonly string[] | null;
  pageInfo: PageInfoShape;
  totalCount: number | null;
}

const keyOf = (node: FieldNode) => JSON.stringify(node.alias?.value ?? node.name.value);

/** A connection's fields in the selection's order: `edges { node }` around each node's text or `nodes` as a list of them, `pageInfo` and `totalCount`. */
export function connectionWriter(
  root: FieldNode,
  connection: GraphQLObjectType,
): (page: PageAnswer) => string {
  const parts = fieldsOf(root.selectionSet).map((field, index) => {
    const prefix = `${index === 0 ? "" : ","}${keyOf(field)}:`;
    if (field.name.value === "__typename") {
      const name = JSON.stringify(connection.name);
      return () => prefix + name;
    }
    if (field.name.value === "totalCount") return (page: PageAnswer) => prefix + String(page.totalCount);
    if (field.name.value === "pageInfo") {
      const write = pageInfoWriter(field);
      return (page: PageAnswer) => prefix + write(page.pageInfo);
    }
    // The planner compiles `edges { node }` or `nodes` beside `pageInfo` and `totalCount` (read-statements.ts).
    if (field.name.value === "nodes") return (page: PageAnswer) => prefix + jsonArrayText(page.nodes);
    if (field.name.value !== "edges")
      throw new PlanError(`${connection.name}.${field.name.value} is not planned`, "connection_field");
    const edge = edgeWriter(connection, field);
    return (page: PageAnswer) =>
      prefix + jsonArrayText(page.nodes.map((_node, position) => edge(page, position)));
  });
  return (page) => {
    let out = "{";
    for (const part of parts) out += part(page);
    return `${out}}`;
  };
}

/** The writer of the edge at a position of a page: its node's text, its cursor and `__typename`, in the selection's order. */
function edgeWriter(
  connection: GraphQLObjectType,
  edges: FieldNode,
): (page: PageAnswer, position: number) => string {
  const type = getNamedType(connection.getFields().edges?.type);
  if (!type) throw new PlanError(`${connection.name} has no edges`, "connection_field");
  const parts = fieldsOf(edges.selectionSet).map((field, index) => {
    const prefix = `${index === 0 ? "" : ","}${keyOf(field)}:`;
    switch (field.name.value) {
      case "node":
        return (page: PageAnswer, position: number) => prefix + (page.nodes[position] ?? "null");
      case "cursor":
        return (page: PageAnswer, position: number) => {
          const cursor = page.cursors?.[position];
          if (cursor === undefined) throw new Error(`${type.name}.cursor was not read`);
          return prefix + JSON.stringify(cursor);
        };
      case "__typename": {
        const name = JSON.stringify(type.name);
        return () => prefix + name;
      }
      default:
        throw new PlanError(`${type.name}.${field.name.value} is not planned`, "connection_field");
    }
  });
  return (page, position) => {
    let out = "{";
    for (const part of parts) out += part(page, position);
    return `${out}}`;
  };
}

const PAGE_INFO_FIELDS: Readonly<Record<string, (info: PageInfoShape) => string>> = {
  hasNextPage: (info) => String(info.hasNextPage),
  hasPreviousPage: (info) => String(info.hasPreviousPage),
  startCursor: (info) => JSON.stringify(info.startCursor),
  endCursor: (info) => JSON.stringify(info.endCursor),
  __typename: () => `"PageInfo"`,
};

function pageInfoWriter(node: FieldNode): (info: PageInfoShape) => string {
  const parts = fieldsOf(node.selectionSet).map((field, index) => {
    const key = field.alias?.value ?? field.name.value;
    const write = PAGE_INFO_FIELDS[field.name.value];
    if (!write) throw new PlanError(`PageInfo.${field.name.value} is not planned`);
    return { prefix: `${index === 0 ? "" : ","}${JSON.stringify(key)}:`, write };
  });
  return (info) => {
    let out = "{";
    for (const { prefix, write } of parts) out += prefix + write(info);
    return `${out}}`;
  };
}

type NodeSelection = {
  type: GraphQLOutputType;
  selections: SelectionSetNode | undefined;
  /** Whether an edge's `cursor` is selected. */
  cursors: boolean;
};

/** What an edge may select beside its `node`: written from the page, not the node's row. */
const EDGE_FIELDS = new Set(["cursor", "__typename"]);

/**
 * The selection of a connection's nodes: `edges { node }` (with an edge's
 * `cursor`) or `nodes`, beside `pageInfo` and `totalCount`; without either,
 * the nodes select nothing. A page's rows are written once, by one
 * selection: the nodes' two spellings together, or either twice, are not
 * planned.
 */
export function nodeSelectionOf(connection: GraphQLObjectType, node: FieldNode): NodeSelection {
  const edges = connection.getFields().edges;
  const edge = edges && getNamedType(edges.type);
  const nodeType = isObjectType(edge) ? edge.getFields().node?.type : undefined;
  if (!nodeType) throw new PlanError(`${connection.name} has no edges { node }`, "connection_field");
  let selections: SelectionSetNode | undefined;
  let spelled = false;
  let cursors = false;
  for (const selected of fieldsOf(node.selectionSet)) {
    const name = selected.name.value;
    if (name === "pageInfo" || name === "__typename" || name === "totalCount") continue;
    const edgeFields = name === "edges" ? fieldsOf(selected.selectionSet) : [];
    const nodeFields = edgeFields.filter((field) => !EDGE_FIELDS.has(field.name.value));
    const [nodeField, ...others] = nodeFields;
    const nodes =
      name === "nodes"
        ? selected
        : name === "edges" &&
            (nodeField === undefined || nodeField.name.value === "node") &&
            others.length === 0
          ? (nodeField ?? { selectionSet: undefined })
          : undefined;
    if (!nodes || spelled)
      throw new PlanError(
        `${connection.name}.${name} is not planned: only one of edges { node } and nodes, pageInfo and totalCount are`,
        "connection_field",
      );
    spelled = true;
    cursors = edgeFields.some((field) => field.name.value === "cursor");
    selections = nodes.selectionSet;
  }
  return { type: nodeType, selections, cursors };
}

/** The cursor position of a row: its sort value and id (read at `keys`), as `encodeCursor` reads them. */
export function positionOf(
  row: Row,
  keys: { value: number; id: number },
  page: PageRequest,
): Record<string, unknown> {
  const value = row[keys.value];
  const { key } = page.order;
  const text = typeof value === "string" ? value : null;
  const position =
    text === null
      ? null
      : key.kind === "time"
        ? new Date(isoTime(text))
        : key.kind === "decimal"
          ? decimalDigits(text)
          : text;
  return { id: row[keys.id], [key.field]: position };
}
