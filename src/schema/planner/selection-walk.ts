// The walk of a planned read's selection: each selected field of each
// object type, read from the statement's rows as the schema's metadata says
// (a column, a relation's join, a list's subquery, what a resolver declares
// it reads), and the writer of its JSON text by its GraphQL type.
import {
  type FieldNode,
  type GraphQLField,
  GraphQLList,
  type GraphQLObjectType,
  type GraphQLOutputType,
  getNamedType,
  getNullableType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type SelectionSetNode,
} from "graphql";
import type { Viewer } from "../../auth/viewer.js";
import { RECORD_TYPE_OF_TABLE } from "../../db/change-log.js";
import type { DataModel } from "../../db/data-model.js";
import { contractSpelling } from "../../domain/contract-vocabulary.js";
import { parseExactJson } from "../../domain/webhook-events.js";
import { encodeGlobalId } from "../global-ids.js";
import type { PageRequest } from "../page-window.js";
import { type ObjectProperty, type RowPath, relationPageOf, rowReadOf } from "../read-metadata.js";
import { computedWriter, leafEncoder } from "./computed-writer.js";
import { type FieldValue, relationSelectOf, rowReadValue, type Source } from "./field-values.js";
import { jsonArrayText } from "./json-parts.js";
import { planRelationPage } from "./relation-page.js";
import {
  type BoundRequest,
  type FieldArguments,
  type RequestSlot,
  VIEWER_BUYER,
} from "./request-arguments.js";
import { fieldsOf } from "./selection-fields.js";
import { quoted, SqlWriter } from "./sql-writer.js";
import { followPath, listColumn, Scope } from "./statement.js";
import {
  constantWriter,
  differsWriter,
  itemEncoder,
  type OutputSpelling,
  objectWriter,
  PlanError,
  presentWriter,
  RowValueError,
  rowListWriter,
  scalarWriter,
  subRowWriter,
  textWriter,
  type Writer,
} from "./writers.js";

// Where the planner's modules have always found it.
export { fieldsOf } from "./selection-fields.js";

/** The database's label of an enum value as Prisma spells it (src/domain/contract-vocabulary.ts). */
const enumLabel = (value: string) => contractSpelling(value);

/** One planning of a planned read: its statement as planned so far, and the writers of its selection. */
export class PlanContext {
  readonly sql: SqlWriter;
  private readonly slots: RequestSlot[] = [];

  constructor(
    private readonly dataModel: DataModel,
    private readonly spelling: OutputSpelling,
    /** The arguments of a field below the root, for a request. */
    readonly fieldArguments: FieldArguments,
  ) {
    this.sql = new SqlWriter(dataModel, enumLabel);
  }

  /** Registers what each request gives a place of the selection; its page is `values.pages[index]`. */
  addSlot(slot: RequestSlot): number {
    this.slots.push(slot);
    return this.slots.length - 1;
  }

  /** The rows' table of a Prisma object type, checked against the model its read names. */
  rootScope(type: GraphQLOutputType, model: string): Scope {
    const named = getNamedType(type);
    if (!isObjectType(named) || named.extensions.pothosPrismaModel !== model)
      throw new PlanError(`${named.name} is not the Prisma object of ${model}`);
    if (!this.dataModel.has(model)) throw new PlanError(`no table for the model ${model}`);
    return new Scope(this.sql, { model: this.sql.model(model), alias: this.sql.alias() });
  }

  /**
   * The change log's record types whose writes can change what the statement
   * as planned reads; null when it reads a table the log does not version.
   */
  recordTypes(): readonly string[] | null {
    const types = new Set<string>();
    for (const table of this.sql.tables) {
      const type = RECORD_TYPE_OF_TABLE.get(table);
      if (type === undefined) return null;
      types.add(type);
    }
    return [...types].sort();
  }

  /**
   * The plan-time parameters for a request, its buyer in place of the planning
   * one and its arguments in their slots, and what its writers read.
   */
  bind(
    viewer: Viewer,
    variables: Readonly<Record<string, unknown>>,
    context: { appBaseUrl: string },
  ): BoundRequest {
    const given = new Map<string, string | null>([[VIEWER_BUYER, viewer.buyerId]]);
    const pages: (PageRequest | null)[] = [];
    for (const slot of this.slots) {
      const bound = slot(variables);
      for (const [token, value] of bound.parameters) given.set(token, value);
      pages.push(bound.page);
    }
    return {
      parameters: this.sql.values.map((value) =>
        value !== null && given.has(value) ? (given.get(value) ?? null) : value,
      ),
      values: { appBaseUrl: context.appBaseUrl, pages },
    };
  }

  /** A statement's writer of the request's own conditions, numbered after the plan's parameters and aliases. */
  requestSql(): SqlWriter {
    return new SqlWriter(this.dataModel, enumLabel, this.sql);
  }

  /** The writer of a statement of the request's own, without the plan's select (its parameters numbered from 1). */
  separateSql(): SqlWriter {
    return new SqlWriter(this.dataModel, enumLabel);
  }

  /** The writer of an object type's selection, reading from `source`. */
  objectOf(type: GraphQLOutputType, selectionSet: SelectionSetNode | undefined, source: Source): Writer {
    if (!isObjectType(type)) throw new PlanError(`${String(type)} is not an object type`);
    const model = type.extensions.pothosPrismaModel;
    if (model !== undefined && (source.kind !== "row" || source.table.model.name !== model))
      throw new PlanError(`${type.name} is read from a row that is not a ${String(model)}`);
    return objectWriter(
      fieldsOf(selectionSet).map((node) => {
        const key = node.alias?.value ?? node.name.value;
        if (node.name.value === "__typename" && !node.directives?.length)
          return { key, write: constantWriter(JSON.stringify(type.name)) };
        const field = type.getFields()[node.name.value];
        if (!field) throw new PlanError(`${type.name}.${node.name.value} is not planned`, "introspection");
        // A GraphQL document's directives are resolved before (collected-selection.ts).
        if (node.directives?.length) throw new PlanError(`${type.name}.${field.name} has a directive`);
        return { key, write: this.fieldOf(type, field, node, source) };
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
    const { extensions } = field;
    const page = relationPageOf(extensions);
    if (page) {
      if (source.kind !== "row") throw new PlanError(`${where}: a page of an object that is not a row`);
      return guarded(
        () => planRelationPage(this, page, parent.name, field, node, source.scope, source.table),
        where,
      );
    }
    // Arguments only a relation's page declares how it reads; any other field's would go unread.
    if (field.args.length > 0)
      throw new PlanError(`${where} takes arguments its read does not declare`, "undeclared_field");
    const rowRead = rowReadOf(extensions);
    const exposed = extensions.pothosExposedField;
    const relation = extensions.pothosPrismaRelationField;
    let value: FieldValue;
    try {
      if (rowRead) value = rowReadValue(rowRead, field, source);
      else if (typeof exposed === "string") value = this.property(source, exposed);
      else if (isNamed(relation)) value = this.property(source, relation.name, relationSelectOf(field));
      else throw new PlanError("it has a resolver that declares nothing it reads", "undeclared_field");
    } catch (error) {
      if (error instanceof PlanError) throw new PlanError(`${where}: ${error.message}`, error.refusal);
      throw error;
    }
    return this.writerOf(field.type, node.selectionSet, value, source.scope, where);
  }

  /**
   * The value of a property of `source`: a field of its row (a relation taken
   * as `select` says), or one of the properties its object was made of.
   */
  private property(source: Source, name: string, select?: unknown): FieldValue {
    if (source.kind === "row")
      return source.fallbacks?.get(name) ?? followPath(source.scope, source.table, [name], select);
    if (source.kind === "counts") {
      const count = source.counts.count(name);
      if (!count) throw new PlanError(`its counts have no ${name}`);
      return { kind: "column", ...count };
    }
    const property = source.properties[name];
    if (!property) throw new PlanError(`its object has no property ${name}`);
    const follow = (path: RowPath) => followPath(source.scope, source.table, path, source.select);
    if (isPath(property)) return follow(property);
    const compared = follow(property.differs);
    if (compared.kind !== "column" || compared.column.isList)
      throw new PlanError(`its property ${name} compares what is not a column`);
    return { kind: "differs", key: compared.key, from: property.from };
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
        // Base64 has nothing JSON escapes.
        return scalarWriter(key, (id) => `"${encodeGlobalId(node, id)}"`, {
          list,
          nullable,
          itemsNullable,
        });
      }
      case "row": {
        if (list) return fail("a list read from one row");
        const write = this.objectOf(named, selectionSet, {
          kind: "row",
          scope,
          table: value.table,
          fallbacks: value.fallbacks,
        });
        // A joined row is absent when the column its join matched on is null.
        const [matched] = value.relation?.on ?? [];
        if (!matched) return write;
        const presence = scope.column(`${quoted(value.table.alias)}.${quoted(matched.to)}::text`);
        return presentWriter([presence], write, nullable);
      }
      case "object": {
        if (list) return fail("a list read from one object");
        const write = this.objectOf(named, selectionSet, value.source);
        return value.presence.length > 0 ? presentWriter(value.presence, write, nullable) : write;
      }
      case "json":
        if (named.name !== "JSON" || list) return fail("a JSON text read as something else than JSON");
        return scalarWriter(value.key, exactJsonText, { list, nullable, itemsNullable });
      case "differs":
        if (named.name !== "Boolean" || list)
          return fail("a comparison read as something else than a Boolean");
        return differsWriter(value.key, value.from, nullable);
      case "computed":
        return computedWriter(value.columns, value.compute, this.encoderOf(type, selectionSet, where));
      case "rows": {
        if (!list || itemsNullable) return fail("a list relation read as something else than a list of rows");
        const item = this.objectOf(named, selectionSet, {
          kind: "row",
          scope: value.scope,
          table: value.scope.table,
        });
        return rowListWriter(listColumn(scope, value), item);
      }
      case "keyedRows": {
        if (!list || itemsNullable) return fail("keyed rows read as something else than a list of rows");
        const { rows } = value;
        const item = this.objectOf(named, selectionSet, { kind: "row", scope: rows.list, table: rows.item });
        return rowListWriter(scope.column(rows.column()), item);
      }
      case "counts": {
        if (list) return fail("counts read as a list");
        const write = this.objectOf(named, selectionSet, {
          kind: "counts",
          scope: value.counts.scope,
          counts: value.counts,
        });
        return subRowWriter(scope.column(value.counts.column()), write);
      }
    }
  }

  /**
   * The JSON text of a value a field computed, as execution completes it by
   * `type`: null where allowed, lists item by item, objects by the fields
   * selected, each the property it exposes, leaves as they serialize.
   */
  private encoderOf(
    type: GraphQLOutputType,
    selectionSet: SelectionSetNode | undefined,
    where: string,
  ): (value: unknown) => string {
    const nullable = !isNonNullType(type);
    const present = this.presentEncoderOf(isNonNullType(type) ? type.ofType : type, selectionSet, where);
    return (value) => {
      if (value !== null && value !== undefined) return present(value);
      if (!nullable) throw new RowValueError(`${where}: a required value is null`);
      return "null";
    };
  }

  /** The JSON text of a value that is not null, of a type that is not non-null. */
  private presentEncoderOf(
    type: GraphQLOutputType,
    selectionSet: SelectionSetNode | undefined,
    where: string,
  ): (value: unknown) => string {
    if (type instanceof GraphQLList) {
      const item = this.encoderOf(type.ofType, selectionSet, where);
      return (value) => {
        if (!Array.isArray(value)) throw new RowValueError(`${where}: a computed list is no array`);
        return jsonArrayText(value.map(item));
      };
    }
    if (isLeafType(type)) return leafEncoder(type, this.spelling);
    if (!isObjectType(type) || type.extensions.pothosPrismaModel !== undefined)
      throw new PlanError(`${where}: a computed value of ${String(type)}, which is no plain object type`);
    const fields = fieldsOf(selectionSet).map((node) => {
      const key = JSON.stringify(node.alias?.value ?? node.name.value);
      if (node.name.value === "__typename" && !node.directives?.length) {
        const name = JSON.stringify(type.name);
        return { key, property: null, encode: () => name };
      }
      const field = type.getFields()[node.name.value];
      const at = `${type.name}.${node.name.value}`;
      if (!field) throw new PlanError(`${at} is not planned`, "introspection");
      if (node.directives?.length) throw new PlanError(`${at} has a directive`);
      const property = field.extensions.pothosExposedField;
      if (typeof property !== "string" || field.args.length > 0)
        throw new PlanError(`${at}: it exposes no property of a computed value`, "undeclared_field");
      return { key, property, encode: this.encoderOf(field.type, node.selectionSet, at) };
    });
    return (value) => {
      if (typeof value !== "object" || value === null)
        throw new RowValueError(`${where}: a computed object is no object`);
      let out = "{";
      fields.forEach(({ key, property, encode }, index) => {
        out += `${index === 0 ? "" : ","}${key}:${encode(property === null ? null : Reflect.get(value, property))}`;
      });
      return `${out}}`;
    };
  }
}

/** The JSON text execution writes of a stored JSON text: its value as `parseExactJson` reads it, written again. */
function exactJsonText(text: string): string {
  let value: unknown;
  try {
    value = parseExactJson(text);
  } catch {
    throw new RowValueError("a column holds no JSON text");
  }
  return JSON.stringify(value) ?? "null";
}

const isPath = (property: ObjectProperty): property is RowPath => Array.isArray(property);

function guarded<Result>(make: () => Result, where: string): Result {
  try {
    return make();
  } catch (error) {
    if (error instanceof PlanError) throw new PlanError(`${where}: ${error.message}`, error.refusal);
    throw error;
  }
}

function isNamed(value: unknown): value is { name: string } {
  return typeof value === "object" && value !== null && "name" in value && typeof value.name === "string";
}
