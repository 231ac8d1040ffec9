// Compiled reads: a fixed document over the schema's root reads (a list or
// a record of the buyer's) planned once into one SQL statement and writers
// of its answer's JSON text, straight from the rows. What each field reads
// comes from the schema's own metadata: plugin-prisma's model of each type,
// the column each exposed field names, each relation's join, and, for fields
// with their own resolvers, what they declare they read (read-metadata.ts).
// Root fields hand over the Prisma `where` and page their resolvers use,
// which prisma-sql.ts writes as SQL. A document with a field none of this
// covers is not compiled: it runs on normal execution, and `plan` says why.
import { createHash, randomUUID } from "node:crypto";
import {
  type FieldNode,
  GraphQLError,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  getNullableType,
  getVariableValues,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import { LRUCache } from "lru-cache";
import type { Viewer } from "../../auth/viewer.js";
import type { DataModel } from "../../db/data-model.js";
import { contractSpelling } from "../../domain/contract-vocabulary.js";
import { DomainError } from "../../domain/errors.js";
import type { GraphQLContext } from "../context.js";
import { encodeCursor } from "../cursor.js";
import { encodeGlobalId, type NodeTypeName, resolverArguments } from "../global-ids.js";
import { type PageInfoShape, type PageRequest, pageInfoOf, pageNodes, pageWindow } from "../page-window.js";
import {
  type RecordRead,
  type RootListRead,
  type RowPath,
  type RowRead,
  recordReadOf,
  rootListOf,
  rowReadOf,
} from "../read-metadata.js";
import { columnSql, orderBySql, quoted, SqlWriter, type TableRef, whereSql } from "./prisma-sql.js";
import { followPath, listColumn, type PathValue, Scope } from "./statement.js";
import {
  decimalDigits,
  isoTime,
  itemEncoder,
  type OutputSpelling,
  objectWriter,
  PlanError,
  presentWriter,
  type RequestValues,
  type Row,
  rowListWriter,
  scalarWriter,
  type TextSource,
  textOf,
  textWriter,
  type Writer,
} from "./writers.js";

export type { OutputSpelling } from "./writers.js";

/**
 * Runs one statement with `$1`… parameters for a request (the Database's
 * `query`: PGlite and PostgreSQL alike), wherever that request's reads run.
 * `name` names the text: PostgreSQL parses and plans a named statement once
 * per connection.
 */
export type QueryRows = (
  text: string,
  values: readonly (string | null)[],
  context: GraphQLContext,
  name: string,
) => Promise<Row[]>;

/** Statement names by text, as many as a process is likely to send; one name always means one text. */
const statementNames = new LRUCache<string, string>({ max: 2000 });

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `compiled_${createHash("sha256").update(text).digest("hex").slice(0, 32)}`;
    statementNames.set(text, name);
  }
  return name;
}

/** What a compiled read answers: a record's JSON text (null: none), or a page's nodes as a JSON array and its page info. */
export type ReadOutcome =
  | { kind: "record"; json: string | null }
  | { kind: "page"; nodes: string; pageInfo: PageInfoShape };

export interface CompiledRead {
  /**
   * Runs the read for one request. Null when the request's arguments are
   * refused (a bad cursor, a global ID of another type, …): normal execution
   * answers those, with the problems it always gives. Anything else thrown
   * is a failure of the compiled read, and the request may run normally.
   */
  run(variables: Readonly<Record<string, unknown>>, context: GraphQLContext): Promise<ReadOutcome | null>;
}

export type ReadPlan = { compiled: CompiledRead } | { reason: string };

export interface ReadPlanner {
  plan(operation: OperationDefinitionNode, spelling: OutputSpelling): ReadPlan;
}

// Selects that depend on the caller (a relation narrowed to the viewer's buyer)
// are planned with this in place of the buyer's id; each request binds its own.
const VIEWER_BUYER = randomUUID();
const PLANNING_CONTEXT = { viewer: { buyerId: VIEWER_BUYER, apiKeyId: VIEWER_BUYER } };

/** The database's label of an enum value as Prisma spells it (src/domain/contract-vocabulary.ts). */
const enumLabel = (value: string) => contractSpelling(value);

/** What a field's value is read from. */
type FieldValue =
  | PathValue
  | { kind: "object"; source: Source }
  | { kind: "text"; parts: TextSource[] }
  | { kind: "globalId"; type: NodeTypeName; key: string };

/** A place of a selection: a row of the statement, or an object a field made of a row's values. */
type Source =
  | { kind: "row"; scope: Scope; table: TableRef }
  | {
      kind: "object";
      scope: Scope;
      table: TableRef;
      properties: Readonly<Record<string, RowPath>>;
      select: unknown;
    };

export function createReadPlanner(options: {
  schema: GraphQLSchema;
  dataModel: DataModel;
  query: QueryRows;
}): ReadPlanner {
  const { schema, dataModel, query } = options;
  return {
    plan(operation, spelling) {
      try {
        return { compiled: planOperation(operation, spelling) };
      } catch (error) {
        if (error instanceof PlanError) return { reason: error.message };
        throw error;
      }
    },
  };

  function planOperation(operation: OperationDefinitionNode, spelling: OutputSpelling): CompiledRead {
    const root = schema.getQueryType();
    if (operation.operation !== "query" || !root) throw new PlanError("it is not a query");
    const [fieldNode, ...more] = operation.selectionSet.selections;
    if (fieldNode?.kind !== Kind.FIELD || more.length > 0 || fieldNode.directives?.length)
      throw new PlanError("it selects more than one root field, or a fragment or directive");
    const field = root.getFields()[fieldNode.name.value];
    if (!field) throw new PlanError(`Query has no field ${fieldNode.name.value}`);
    const plan = new PlanContext(dataModel, spelling);
    const list = rootListOf(field.extensions);
    const record = recordReadOf(field.extensions);
    const argumentsOf = (variables: Readonly<Record<string, unknown>>) =>
      readArguments(schema, operation, field, fieldNode, variables);
    if (list) return plan.rootList(list, field, fieldNode, argumentsOf, query);
    if (record) return plan.recordRead(record, field, fieldNode, argumentsOf, query);
    throw new PlanError(`Query.${field.name} declares no compiled read`);
  }
}

/** A root field's arguments as its resolver receives them; null when execution would refuse them. */
function readArguments(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  field: GraphQLField<unknown, unknown>,
  node: FieldNode,
  variables: Readonly<Record<string, unknown>>,
): Record<string, unknown> | null {
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (coerced.errors) return null;
  try {
    return resolverArguments("Query", field.name, getArgumentValues(field, node, coerced.coerced));
  } catch (error) {
    if (error instanceof GraphQLError || error instanceof DomainError) return null;
    throw error;
  }
}

/** Runs `build`; null when it refuses the request (a domain error: normal execution words it). */
function unlessRefused<Result>(build: () => Result): Result | null {
  try {
    return build();
  } catch (error) {
    if (error instanceof DomainError) return null;
    throw error;
  }
}

type ArgumentsOf = (variables: Readonly<Record<string, unknown>>) => Record<string, unknown> | null;

class PlanContext {
  readonly sql: SqlWriter;

  constructor(
    private readonly dataModel: DataModel,
    private readonly spelling: OutputSpelling,
  ) {
    this.sql = new SqlWriter(dataModel, enumLabel);
  }

  /** The rows' table of a Prisma object type, checked against the model its read names. */
  private rootScope(type: GraphQLOutputType, model: string): Scope {
    const named = getNamedType(type);
    if (!isObjectType(named) || named.extensions.pothosPrismaModel !== model)
      throw new PlanError(`${named.name} is not the Prisma object of ${model}`);
    const table = this.dataModel.get(model);
    if (!table) throw new PlanError(`no table for the model ${model}`);
    return new Scope(this.sql, { model: table, alias: this.sql.alias() });
  }

  /** The plan-time parameters, each request's buyer in place of the planning one. */
  private parametersFor(viewer: Viewer): (string | null)[] {
    return this.sql.values.map((value) => (value === VIEWER_BUYER ? viewer.buyerId : value));
  }

  /** A statement's writer of the request's own conditions, numbered after the plan's parameters and aliases. */
  private requestSql(): SqlWriter {
    return new SqlWriter(this.dataModel, enumLabel, this.sql);
  }

  recordRead(
    read: RecordRead,
    field: GraphQLField<unknown, unknown>,
    node: FieldNode,
    argumentsOf: ArgumentsOf,
    query: QueryRows,
  ): CompiledRead {
    const scope = this.rootScope(field.type, read.model);
    const write = this.objectOf(getNamedType(field.type), node.selectionSet, {
      kind: "row",
      scope,
      table: scope.table,
    });
    const select = `SELECT ${scope.selectList()} FROM ${scope.from()}`;
    return {
      run: async (variables, context) => {
        const viewer = context.viewer;
        const args = viewer && argumentsOf(variables);
        const where = viewer && args && unlessRefused(() => read.where(args, viewer));
        if (!viewer || !where) return null;
        const sql = this.requestSql();
        const text = `${select} WHERE ${whereSql(where, scope.table, sql)} LIMIT 1`;
        const [row] = await query(
          text,
          [...this.parametersFor(viewer), ...sql.values],
          context,
          statementName(text),
        );
        return { kind: "record", json: row ? write(row, requestValues(context)) : null };
      },
    };
  }

  rootList(
    read: RootListRead,
    field: GraphQLField<unknown, unknown>,
    node: FieldNode,
    argumentsOf: ArgumentsOf,
    query: QueryRows,
  ): CompiledRead {
    const connection = getNamedType(field.type);
    if (!isObjectType(connection)) throw new PlanError(`${connection.name} is not a connection`);
    let nodeSelection: { type: GraphQLOutputType; selections: SelectionSetNode | undefined } | null = null;
    for (const selected of fieldsOf(node.selectionSet)) {
      const name = selected.name.value;
      if (name === "pageInfo") continue;
      const edges = connection.getFields().edges;
      const edge = edges && getNamedType(edges.type);
      const [nodeField, ...others] = fieldsOf(selected.selectionSet);
      const nodeType = isObjectType(edge) ? edge.getFields().node?.type : undefined;
      if (name !== "edges" || !nodeField || others.length > 0 || nodeField.name.value !== "node" || !nodeType)
        throw new PlanError(
          `${connection.name}.${name} is not compiled: only edges { node } and pageInfo are`,
        );
      if (nodeSelection) throw new PlanError("edges is selected twice");
      nodeSelection = { type: nodeType, selections: nodeField.selectionSet };
    }
    if (!nodeSelection) throw new PlanError("the page selects no edges { node }");
    const scope = this.rootScope(nodeSelection.type, read.model);
    const write = this.objectOf(getNamedType(nodeSelection.type), nodeSelection.selections, {
      kind: "row",
      scope,
      table: scope.table,
    });
    const selectList = scope.selectList();
    const from = scope.from();
    const { table } = scope;
    return {
      run: async (variables, context) => {
        const viewer = context.viewer;
        const args = viewer && argumentsOf(variables);
        const request = viewer && args && unlessRefused(() => read.request(args, viewer));
        if (!viewer || !request) return null;
        const { where, page } = request;
        const window = pageWindow(page);
        const sql = this.requestSql();
        const sortColumn = table.model.fields.get(page.order.key.field);
        const idColumn = table.model.fields.get("id");
        if (sortColumn?.kind !== "scalar" || idColumn?.kind !== "scalar")
          throw new PlanError(`${table.model.name} cannot be sorted by ${page.order.key.field}`);
        const conditions = whereSql({ AND: [where, ...window.bounds] }, table, sql);
        const order = orderBySql(window.orderBy, table).join(", ");
        const text =
          `SELECT ${selectList}, ${textOf(sortColumn, columnSql(table, sortColumn))} AS "sort_value", ` +
          `${columnSql(table, idColumn)}::text AS "sort_id" FROM ${from} WHERE ${conditions} ` +
          `ORDER BY ${order} LIMIT ${sql.bind(String(window.take))}`;
        const rows = await query(
          text,
          [...this.parametersFor(viewer), ...sql.values],
          context,
          statementName(text),
        );
        const { nodes, more } = pageNodes(rows, page);
        const values = requestValues(context);
        let json = "[";
        for (let index = 0; index < nodes.length; index += 1) {
          const row = nodes[index];
          if (row) json += (index > 0 ? "," : "") + write(row, values);
        }
        const pageInfo = pageInfoOf(nodes, more, page, (row) =>
          encodeCursor(positionOf(row, page), page.order),
        );
        return { kind: "page", nodes: `${json}]`, pageInfo };
      },
    };
  }

  /** The writer of an object type's selection, reading from `source`. */
  private objectOf(
    type: GraphQLOutputType,
    selectionSet: SelectionSetNode | undefined,
    source: Source,
  ): Writer {
    if (!isObjectType(type)) throw new PlanError(`${String(type)} is not an object type`);
    const model = type.extensions.pothosPrismaModel;
    if (model !== undefined && (source.kind !== "row" || source.table.model.name !== model))
      throw new PlanError(`${type.name} is read from a row that is not a ${String(model)}`);
    return objectWriter(
      fieldsOf(selectionSet).map((node) => {
        const field = type.getFields()[node.name.value];
        if (!field) throw new PlanError(`${type.name}.${node.name.value} is not compiled (__typename)`);
        if (node.directives?.length) throw new PlanError(`${type.name}.${field.name} has a directive`);
        return { key: node.alias?.value ?? node.name.value, write: this.fieldOf(type, field, node, source) };
      }),
    );
  }

  private fieldOf(
    parent: GraphQLObjectType,
    field: GraphQLField<unknown, unknown>,
    node: FieldNode,
    source: Source,
  ): Writer {
    const where = `${parent.name}.${field.name}`;
    if (field.args.length > 0 && (node.arguments?.length ?? 0) > 0)
      throw new PlanError(`${where} takes arguments`);
    const { extensions } = field;
    const rowRead = rowReadOf(extensions);
    const exposed = extensions.pothosExposedField;
    const relation = extensions.pothosPrismaRelationField;
    let value: FieldValue;
    try {
      if (rowRead) value = this.readRow(rowRead, field, source);
      else if (typeof exposed === "string") value = this.property(source, exposed);
      else if (isNamed(relation)) value = this.property(source, relation.name);
      else throw new PlanError("it has a resolver that declares nothing it reads");
    } catch (error) {
      if (error instanceof PlanError) throw new PlanError(`${where}: ${error.message}`);
      throw error;
    }
    return this.writerOf(field.type, node.selectionSet, value, source.scope, where);
  }

  /** The value of a property of `source`: a field of its row, or one of the paths its object was made of. */
  private property(source: Source, name: string): PathValue {
    if (source.kind === "row") return followPath(source.scope, source.table, [name], undefined);
    const path = source.properties[name];
    if (!path) throw new PlanError(`its object has no property ${name}`);
    return followPath(source.scope, source.table, path, source.select);
  }

  private readRow(read: RowRead, field: GraphQLField<unknown, unknown>, source: Source): FieldValue {
    // On an object a field made of a row, a field can only hand that object on.
    if (source.kind === "object") {
      if (read.kind === "path" && read.path.length === 0) return { kind: "object", source };
      throw new PlanError("it reads a path of an object that is not a row");
    }
    const select = prismaSelectOf(field);
    const { scope, table } = source;
    const follow = (path: RowPath) => followPath(scope, table, path, select);
    switch (read.kind) {
      case "object":
        return {
          kind: "object",
          source: { kind: "object", scope, table, properties: read.properties, select },
        };
      case "path":
        return follow(read.path);
      case "globalId": {
        const id = follow(["id"]);
        if (id.kind !== "column") throw new PlanError("its row has no id column");
        return { kind: "globalId", type: read.type, key: id.key };
      }
      case "text":
        return {
          kind: "text",
          parts: read.parts.map((part): TextSource => {
            if (typeof part === "string") return { literal: part };
            if ("context" in part) return { context: part.context };
            const value = follow(part.path);
            if (value.kind !== "column" || value.column.type !== "String" || value.column.isList)
              throw new PlanError("a text part is not a column");
            return { key: value.key };
          }),
        };
    }
  }

  /** The writer of a field's value, by its GraphQL type. */
  private writerOf(
    type: GraphQLOutputType,
    selectionSet: SelectionSetNode | undefined,
    value: FieldValue,
    scope: Scope,
    where: string,
  ): Writer {
    const nullable = !isNonNullType(type);
    const inner = getNullableType(type);
    const named = getNamedType(type);
    const list = isListType(inner);
    const itemsNullable = list && !isNonNullType(inner.ofType);
    const fail = (message: string): never => {
      throw new PlanError(`${where}: ${message}`);
    };
    switch (value.kind) {
      case "column": {
        if (isObjectType(named)) return fail("an object type read from a column");
        if (list !== value.column.isList) return fail("a list and a column that is not one, or the reverse");
        const encode = guarded(() => itemEncoder(named, value.column, this.spelling), where);
        return scalarWriter(value.key, encode, { list, nullable, itemsNullable });
      }
      case "text":
        if (named.name !== "String" || list) return fail("a text read as something else than a String");
        return textWriter(value.parts, nullable);
      case "globalId": {
        if (named.name !== "ID" || list) return fail("a global ID read as something else than an ID");
        const { type: node, key } = value;
        return scalarWriter(key, (id) => JSON.stringify(encodeGlobalId(node, id)), {
          list,
          nullable,
          itemsNullable,
        });
      }
      case "row": {
        if (list) return fail("a list read from one row");
        const write = this.objectOf(named, selectionSet, { kind: "row", scope, table: value.table });
        // A joined row is absent when the column its join matched on is null.
        const [matched] = value.relation?.on ?? [];
        if (!matched) return write;
        const presence = scope.column(`${quoted(value.table.alias)}.${quoted(matched.to)}::text`);
        return presentWriter(presence, write, nullable);
      }
      case "object":
        if (list) return fail("a list read from one object");
        return this.objectOf(named, selectionSet, value.source);
      case "rows": {
        if (!list || itemsNullable) return fail("a list relation read as something else than a list of rows");
        const item = this.objectOf(named, selectionSet, {
          kind: "row",
          scope: value.scope,
          table: value.scope.table,
        });
        return rowListWriter(listColumn(scope, value), item);
      }
    }
  }
}

/** The cursor position of a row: its sort value and id, as `encodeCursor` reads them. */
function positionOf(row: Row, page: PageRequest): Record<string, unknown> {
  const value = row.sort_value;
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
  return { id: row.sort_id, [key.field]: position };
}

function requestValues(context: GraphQLContext): RequestValues {
  return { appBaseUrl: context.appBaseUrl };
}

function guarded<Result>(make: () => Result, where: string): Result {
  try {
    return make();
  } catch (error) {
    if (error instanceof PlanError) throw new PlanError(`${where}: ${error.message}`);
    throw error;
  }
}

function fieldsOf(selectionSet: SelectionSetNode | undefined): FieldNode[] {
  return (selectionSet?.selections ?? []).map((selection) => {
    if (selection.kind !== Kind.FIELD) throw new PlanError("it uses a fragment");
    return selection;
  });
}

function isNamed(value: unknown): value is { name: string } {
  return typeof value === "object" && value !== null && "name" in value && typeof value.name === "string";
}

type SelectFunction = (
  args: object,
  context: object,
  nestedSelection: (selection: unknown) => unknown,
) => unknown;

function isSelectFunction(value: unknown): value is SelectFunction {
  return typeof value === "function";
}

/**
 * The Prisma selection a field declares (plugin-prisma's `select`), relation
 * by relation; a select written as a function is planned with a stand-in for
 * the viewer, and plugin-prisma hands its result back as a query (`{ select }`).
 */
function prismaSelectOf(field: GraphQLField<unknown, unknown>): unknown {
  const select = field.extensions.pothosPrismaSelect;
  if (!isSelectFunction(select)) return select;
  const query = select({}, PLANNING_CONTEXT, () => {
    throw new PlanError("its select nests the selection of another type");
  });
  if (typeof query !== "object" || query === null) return query;
  const selected: unknown = "select" in query ? query.select : "include" in query ? query.include : undefined;
  return selected ?? query;
}
