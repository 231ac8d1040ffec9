// What a field reads, as data, so that the planned reads
// (src/schema/planner/) can turn a fixed document into SQL without running
// resolvers. Root fields declare how their arguments become a condition
// (src/schema/conditions.ts: a Prisma `where` with its SQL) and a page; fields that read their parent's row declare where in it their
// value is, once, through src/schema/field-reads.ts, which makes their
// `select` and resolver from the same declaration. A field declaring nothing
// keeps a document that selects it on normal execution.
import type { Viewer } from "../auth/viewer.js";
import type { RecordIds } from "./conditions.js";
import type { NodeTypeName } from "./global-ids.js";
import type { PageRequest } from "./page-window.js";

/** A root list field over one model's rows: the rows of a request's arguments, and its page. */
export interface RootListRead {
  /** The Prisma model listed. */
  model: string;
  /** The condition and the page for arguments as the resolver receives them; throws their problems. */
  request(args: Record<string, unknown>, viewer: Viewer): { where: object; page: PageRequest };
  /**
   * The row the arguments name that the listed rows belong to (a delivery's
   * endpoint): where the viewer has none, the field is refused (NOT_FOUND),
   * which execution words.
   */
  owner?: RowOwner;
}

/** A row of `model` the listed rows belong to: its condition for the arguments, as the viewer may see it. */
export interface RowOwner {
  model: string;
  where(args: Record<string, unknown>, viewer: Viewer): object;
}

/** A root field answering one row of a model, or null: the record its arguments name, as the viewer may see it. */
export interface RecordRead {
  model: string;
  /** The id of the record the resolver's arguments name. */
  id(args: Record<string, unknown>): string;
  /** The condition of the records of `ids` the viewer may see (the resolver's, for one id). */
  where(ids: RecordIds, viewer: Viewer): object;
}

/**
 * A connection below the root paging through rows related to its parent's
 * row, newest first: the list relations from the parent to the nodes' rows
 * (the last one's rows are the nodes; any before it are gone through), and
 * what narrows the nodes' rows for the viewer (a condition of
 * src/schema/conditions.ts), for the page and the count alike.
 */
export interface RelationPageRead {
  through: readonly [string, ...string[]];
  where?: (viewer: Viewer | null) => object;
}

/** A field of the request's viewer (`Viewer.buyer`): the one row of `model` that `where` names for the viewer. */
export interface ViewerRecordRead {
  model: string;
  where(viewer: Viewer): object;
}

/** The root field answering the request's viewer, whose fields each read one of the viewer's records. */
export interface ViewerRead {
  records: Readonly<Record<string, ViewerRecordRead>>;
}

/** `node`: for each Node type, the condition of the records of ids as the viewer may see them. */
export type NodeRead = Readonly<Record<NodeTypeName, (ids: RecordIds, viewer: Viewer) => object>>;

/** `nodes`: the records of `node`'s read, for at most `maxIds` IDs. */
export interface NodesRead {
  visible: NodeRead;
  maxIds: number;
}

/**
 * A path into the row Prisma loaded for a field: Prisma field names (a scalar
 * last, or a relation), and list indexes after a list relation (`0` is the
 * first row the field's `select` takes). The empty path is the row itself.
 */
export type RowPath = readonly (string | number)[];

/** One part of a text a field writes: literal text, a value of the request's context, or a row value. */
export type TextPart = string | { context: "appBaseUrl" } | { path: RowPath };

/** A property of an object made of a row: the value at a path, or whether that value differs from a text. */
export type ObjectProperty = RowPath | { differs: RowPath; from: string };

/**
 * Rows of `model` that name their parent by columns no relation joins (a
 * tagging names its record by id and type): each column of `key` equals the
 * parent's property it names, and `where` (a condition of
 * src/schema/conditions.ts) narrows them for the viewer.
 */
export interface KeyedRows {
  model: string;
  key: Readonly<Record<string, string>>;
  where: (viewer: Viewer) => object;
}

/** How a field with its own resolver reads its value from its parent's row. */
export type RowRead =
  /**
   * The value at the path; null when a list relation on the way has no row at
   * the index. Where it is a row, each column `fallbacks` names falls back,
   * when null, to the value at its path of the parent's row.
   */
  | { kind: "path"; path: RowPath; fallbacks?: Readonly<Record<string, RowPath>> }
  /**
   * `compute` of the values at `paths`, each a column, as Prisma reads them:
   * a pure function, which normal execution and the planned reads both call.
   */
  | { kind: "computed"; paths: readonly RowPath[]; compute: (values: readonly unknown[]) => unknown }
  /** A plain object of these properties; null when the value at one of `presentWhen` is null. */
  | {
      kind: "object";
      properties: Readonly<Record<string, ObjectProperty>>;
      presentWhen: readonly RowPath[];
    }
  /** The parts' texts joined. */
  | { kind: "text"; parts: readonly TextPart[] }
  /** The global ID of the row, a record of `type` (`encodeGlobalId`). */
  | { kind: "globalId"; type: NodeTypeName }
  /** The JSON value a text column at the path holds, its numbers kept as their digits (`parseExactJson`). */
  | { kind: "json"; path: RowPath }
  /** The row each of the keyed rows reaches by its to-one relation `through`, in `orderBy` (of `through`'s model). */
  | { kind: "keyedRows"; rows: KeyedRows; through: string; orderBy: object }
  /**
   * An object of counts of the keyed rows: each property counts the rows whose
   * column `by` holds its value, zero for none; `total` counts them all.
   */
  | {
      kind: "counts";
      rows: KeyedRows;
      by: string;
      counted: Readonly<Record<string, string>>;
      total: string;
    };

// Declarations are kept by identity: a field's extensions hold the declaration
// object, and only objects made here are read back as declarations.
const rootLists = new WeakMap<object, RootListRead>();
const recordReads = new WeakMap<object, RecordRead>();
const rowReads = new WeakMap<object, RowRead>();
const nodeReads = new WeakMap<object, NodeRead>();
const nodesReads = new WeakMap<object, NodesRead>();
const relationPages = new WeakMap<object, RelationPageRead>();
const executedReads = new WeakMap<object, ExecutedRead>();
const viewerReads = new WeakMap<object, ViewerRead>();

/** A root field that is not a read of rows (it computes its answer): why it is executed. */
export interface ExecutedRead {
  because: string;
}

/** Extensions of a root field that normal execution answers, saying why: the planner's refusal names it. */
export function executedReadExtension(because: string): { executedRead: ExecutedRead } {
  const read = { because };
  executedReads.set(read, read);
  return { executedRead: read };
}

/** Extensions of a connection below the root over a relation's rows (`relationConnection`). */
export function relationPageExtension(read: RelationPageRead): { relationPage: RelationPageRead } {
  relationPages.set(read, read);
  return { relationPage: read };
}

/** Extensions of `node`, reading the record its global ID names. */
export function nodeReadExtension(read: NodeRead): { nodeRead: NodeRead } {
  nodeReads.set(read, read);
  return { nodeRead: read };
}

/** Extensions of `nodes`, reading the records global IDs name. */
export function nodesReadExtension(read: NodesRead): { nodesRead: NodesRead } {
  nodesReads.set(read, read);
  return { nodesRead: read };
}

/** Extensions of a root list field (`rootConnection`). */
export function rootListExtension(read: RootListRead): { rootList: RootListRead } {
  rootLists.set(read, read);
  return { rootList: read };
}

/** Extensions of a root field that reads one record. */
export function recordReadExtension(read: RecordRead): { recordRead: RecordRead } {
  recordReads.set(read, read);
  return { recordRead: read };
}

/** Extensions of the root field answering the request's viewer, its fields' records read by `read`. */
export function viewerReadExtension(read: ViewerRead): { viewerRead: ViewerRead } {
  viewerReads.set(read, read);
  return { viewerRead: read };
}

/** Extensions of a root field reading the record its `id` argument names, with `where` (which its resolver uses too). */
export function recordByIdExtension(model: string, where: (ids: RecordIds, viewer: Viewer) => object) {
  return recordReadExtension({ model, id: (args) => String(args.id), where });
}

/** Extensions of a field with its own resolver: made only by src/schema/field-reads.ts, with that resolver. */
export function rowReadExtension(read: RowRead): { rowRead: RowRead } {
  rowReads.set(read, read);
  return { rowRead: read };
}

type Extensions = Readonly<Record<string, unknown>> | null | undefined;

const declared = <Declaration>(store: WeakMap<object, Declaration>, value: unknown) =>
  typeof value === "object" && value !== null ? store.get(value) : undefined;

export function rootListOf(extensions: Extensions): RootListRead | undefined {
  return declared(rootLists, extensions?.rootList);
}

export function recordReadOf(extensions: Extensions): RecordRead | undefined {
  return declared(recordReads, extensions?.recordRead);
}

export function rowReadOf(extensions: Extensions): RowRead | undefined {
  return declared(rowReads, extensions?.rowRead);
}

export function nodeReadOf(extensions: Extensions): NodeRead | undefined {
  return declared(nodeReads, extensions?.nodeRead);
}

export function nodesReadOf(extensions: Extensions): NodesRead | undefined {
  return declared(nodesReads, extensions?.nodesRead);
}

export function executedReadOf(extensions: Extensions): ExecutedRead | undefined {
  return declared(executedReads, extensions?.executedRead);
}

export function relationPageOf(extensions: Extensions): RelationPageRead | undefined {
  return declared(relationPages, extensions?.relationPage);
}

export function viewerReadOf(extensions: Extensions): ViewerRead | undefined {
  return declared(viewerReads, extensions?.viewerRead);
}
