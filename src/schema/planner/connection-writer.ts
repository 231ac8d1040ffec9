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
import { decimalDigits, isoTime, PlanError, type RequestValues, type Row, type Writer } from "./writers.js";

/**
 * What a connection is written from: its nodes' JSON texts for each place
 * that selects them (`nodePlaces`), their cursors (null: not selected), its
 * page info, and its count (null: not selected).
 */
export interface PageAnswer {
  /** The nodes' texts as the first place selecting them writes them (every node's `{}` when none does). */
  nodes: readonly string[];
  /** The same nodes' texts for each further place, in the selection's order. */
  spelledAgain: readonly (readonly string[])[];
  cursors: readonly string[] | null;
  pageInfo: PageInfoShape;
  totalCount: number | null;
}

/** The texts of the nodes at place `index` (`nodePlaces`) of a page. */
function nodesAt(page: PageAnswer, index: number): readonly string[] {
  const texts = index === 0 ? page.nodes : page.spelledAgain[index - 1];
  if (!texts) throw new Error(`the nodes of place ${index} were not written`);
  return texts;
}

/** A page's rows written by the writer of each place selecting its nodes, as `PageAnswer` holds them. */
export function nodesOfPlaces(
  writes: readonly Writer[],
  rows: readonly Row[],
  values: RequestValues,
): Pick<PageAnswer, "nodes" | "spelledAgain"> {
  const [first, ...more] = writes.map((write) => rows.map((row) => write(row, values)));
  return { nodes: first ?? [], spelledAgain: more };
}

const keyOf = (node: FieldNode) => JSON.stringify(node.alias?.value ?? node.name.value);

/** A connection's fields in the selection's order: `edges { node }` around each node's text or `nodes` as a list of them, `pageInfo` and `totalCount`. */
export function connectionWriter(
  root: FieldNode,
  connection: GraphQLObjectType,
): (page: PageAnswer) => string {
  // Places are counted in the order `nodePlaces` lists them.
  let places = 0;
  const nextPlace = () => {
    places += 1;
    return places - 1;
  };
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
    // Each place selecting the nodes (`nodes`, an edge's `node`) writes its own texts of the same rows.
    if (field.name.value === "nodes") {
      const place = nextPlace();
      return (page: PageAnswer) => prefix + jsonArrayText(nodesAt(page, place));
    }
    if (field.name.value !== "edges")
      throw new PlanError(`${connection.name}.${field.name.value} is not planned`, "connection_field");
    const edge = edgeWriter(connection, field, nextPlace);
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
  nextPlace: () => number,
): (page: PageAnswer, position: number) => string {
  const type = getNamedType(connection.getFields().edges?.type);
  if (!type) throw new PlanError(`${connection.name} has no edges`, "connection_field");
  const parts = fieldsOf(edges.selectionSet).map((field, index) => {
    const prefix = `${index === 0 ? "" : ","}${keyOf(field)}:`;
    switch (field.name.value) {
      case "node": {
        const place = nextPlace();
        return (page: PageAnswer, position: number) => prefix + (nodesAt(page, place)[position] ?? "null");
      }
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
  /** The selection of each place selecting the nodes, in `nodePlaces`' order; one selecting nothing when none does. */
  places: readonly [SelectionSetNode | undefined, ...(SelectionSetNode | undefined)[]];
  /** Whether an edge's `cursor` is selected. */
  cursors: boolean;
  /** Whether `pageInfo`'s `startCursor` or `endCursor` is selected: otherwise no page cursor is written. */
  pageCursors: boolean;
};

/** What an edge may select beside its `node`: written from the page, not the node's row. */
const EDGE_FIELDS = new Set(["cursor", "__typename"]);

/** The fields of `pageInfo` written from cursors. */
const PAGE_CURSORS = new Set(["startCursor", "endCursor"]);

/** What a connection may select beside the places of its nodes: written from the page. */
const PAGE_FIELDS = new Set(["pageInfo", "__typename", "totalCount"]);

/**
 * The places of a connection's selection that select its nodes, in the order
 * `connectionWriter` writes them: `nodes`, and each `node` of `edges`. All
 * write the same rows, each with its own selection.
 */
function nodePlaces(connection: GraphQLObjectType, node: FieldNode): FieldNode[] {
  return fieldsOf(node.selectionSet).flatMap((selected) => {
    const name = selected.name.value;
    if (PAGE_FIELDS.has(name)) return [];
    if (name === "nodes") return [selected];
    if (name !== "edges")
      throw new PlanError(`${connection.name}.${name} is not planned`, "connection_field");
    return fieldsOf(selected.selectionSet).filter((field) => {
      if (field.name.value === "node") return true;
      if (EDGE_FIELDS.has(field.name.value)) return false;
      throw new PlanError(
        `${connection.name}'s edge's ${field.name.value} is not planned`,
        "connection_field",
      );
    });
  });
}

/**
 * The selection of a connection's nodes: each place selecting them (`nodes`,
 * an edge's `node`, any of them more than once under other keys), beside
 * `pageInfo`, `totalCount` and an edge's `cursor`. The page's rows are read
 * once; each place writes them with its own selection.
 */
export function nodeSelectionOf(connection: GraphQLObjectType, node: FieldNode): NodeSelection {
  const edges = connection.getFields().edges;
  const edge = edges && getNamedType(edges.type);
  const nodeType = isObjectType(edge) ? edge.getFields().node?.type : undefined;
  if (!nodeType) throw new PlanError(`${connection.name} has no edges { node }`, "connection_field");
  const [first, ...more] = nodePlaces(connection, node).map((place) => place.selectionSet);
  const cursors = fieldsOf(node.selectionSet).some(
    (selected) =>
      selected.name.value === "edges" &&
      fieldsOf(selected.selectionSet).some((field) => field.name.value === "cursor"),
  );
  const pageCursors = fieldsOf(node.selectionSet).some(
    (selected) =>
      selected.name.value === "pageInfo" &&
      fieldsOf(selected.selectionSet).some((field) => PAGE_CURSORS.has(field.name.value)),
  );
  return { type: nodeType, places: [first, ...more], cursors, pageCursors };
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
