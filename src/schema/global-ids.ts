// Global IDs (docs/reference/graphql.md "Global IDs"): `Node.id` is the base64 of
// `<type>:<uuid>`, the encoding of Pothos' relay plugin and of most Relay
// servers. Arguments keep their UUID type so that documents written before
// global IDs still validate; the UUID scalar also reads a global ID, and this
// plugin checks, before any resolver runs, that it names a record of a type
// the argument takes, handing resolvers the plain UUID.
import SchemaBuilder, {
  BasePlugin,
  type InputFieldMapping,
  type InputFieldsMapping,
  mapInputFields,
  type PothosInputFieldConfig,
  type PothosInputFieldType,
  type PothosOutputFieldConfig,
  type SchemaTypes,
} from "@pothos/core";
import type { GraphQLFieldResolver } from "graphql";
import { type FieldProblem, validationFailed } from "../domain/errors.js";
import { isUuid } from "../domain/uuid.js";

/** The types whose `id` is a global ID. */
export const NODE_TYPES = [
  "Order",
  "BuyerProduct",
  "BuyerProductApproval",
  "Supplier",
  "SupplierUser",
] as const;
export type NodeTypeName = (typeof NODE_TYPES)[number];

const isNodeType = (name: string): name is NodeTypeName => (NODE_TYPES as readonly string[]).includes(name);

export function encodeGlobalId(type: NodeTypeName, uuid: string): string {
  // Type names and UUIDs are ASCII, so `btoa`'s Latin-1 is their UTF-8, without a Buffer per ID.
  return btoa(`${type}:${uuid}`);
}

/** The type and UUID a global ID names, or null when the text is not a global ID of ours. */
export function decodeGlobalId(globalId: string): { type: NodeTypeName; uuid: string } | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(globalId)) return null;
  const decoded = Buffer.from(globalId, "base64").toString("utf8");
  const separator = decoded.indexOf(":");
  const type = decoded.slice(0, separator);
  const uuid = decoded.slice(separator + 1);
  if (separator < 0 || !isNodeType(type) || !isUuid(uuid)) return null;
  // One spelling per record: what we would write, never a near variant.
  if (encodeGlobalId(type, uuid) !== globalId && encodeGlobalId(type, uuid.toLowerCase()) !== globalId)
    return null;
  return { type, uuid: uuid.toLowerCase() };
}

// What the UUID scalar hands on for a global ID until the plugin below checks
// its type: `<type>:<uuid>`, which no canonical UUID can be mistaken for.
const PENDING_SEPARATOR = ":";

/** The UUID scalar's input value for a global ID, checked by the plugin. */
export function pendingGlobalId(type: NodeTypeName, uuid: string): string {
  return `${type}${PENDING_SEPARATOR}${uuid}`;
}

/** For an id argument or input field: the Node types whose global IDs it takes besides raw UUIDs. */
export function takesIdsOf(...types: NodeTypeName[]): { nodeTypes: NodeTypeName[] } {
  return { nodeTypes: types };
}

function article(type: string): string {
  return /^[AEIOU]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** The raw UUID for one value of an id field, or a problem when it is a global ID of another type. */
function resolveId(
  value: unknown,
  accepted: readonly NodeTypeName[],
  path: (string | number)[],
  problems: FieldProblem[],
): unknown {
  if (typeof value !== "string") return value;
  const separator = value.indexOf(PENDING_SEPARATOR);
  if (separator < 0) return value;
  const type = value.slice(0, separator) as NodeTypeName;
  if (accepted.includes(type)) return value.slice(separator + 1);
  problems.push({
    path,
    code: "invalid",
    message:
      accepted.length === 0
        ? `takes a raw UUID; this is the global ID of ${article(type)}`
        : `must name ${accepted.map(article).join(" or ")}; this is the global ID of ${article(type)}`,
  });
  return value;
}

type Mapping<Types extends SchemaTypes> = InputFieldsMapping<Types, readonly NodeTypeName[]>;

function mapValues<Types extends SchemaTypes>(
  values: Record<string, unknown>,
  mapping: Mapping<Types>,
  path: (string | number)[],
  problems: FieldProblem[],
): Record<string, unknown> {
  const mapped = { ...values };
  for (const [name, field] of mapping) {
    const value = values[name];
    if (value === null || value === undefined) continue;
    mapped[name] = mapList(value, field, field.listDepth, [...path, name], problems);
  }
  return mapped;
}

function mapList<Types extends SchemaTypes>(
  value: unknown,
  field: InputFieldMapping<Types, readonly NodeTypeName[]>,
  depth: number,
  path: (string | number)[],
  problems: FieldProblem[],
): unknown {
  if (value === null || value === undefined) return value;
  if (depth > 0 && Array.isArray(value)) {
    return value.map((item, index) => mapList(item, field, depth - 1, [...path, index], problems));
  }
  if (field.kind === "InputObject") {
    return field.fields.map && typeof value === "object"
      ? mapValues(value as Record<string, unknown>, field.fields.map, path, problems)
      : value;
  }
  return resolveId(value, field.value ?? [], path, problems);
}

function namedScalar<Types extends SchemaTypes>(type: PothosInputFieldType<Types>): string | null {
  if (type.kind === "List") return namedScalar(type.type);
  if (type.kind !== "Scalar") return null;
  const { ref } = type;
  return typeof ref === "string" ? ref : ((ref as { name?: string }).name ?? null);
}

type Resolver<Types extends SchemaTypes> = GraphQLFieldResolver<unknown, Types["Context"], object>;

type IdArgumentsResolver = (args: object) => Record<string, unknown>;

/** Arguments with their global IDs as UUIDs; a global ID of a type the argument does not take throws VALIDATION_FAILED. */
function idArgumentsResolver<Types extends SchemaTypes>(mapping: Mapping<Types>): IdArgumentsResolver {
  return (args) => {
    const problems: FieldProblem[] = [];
    const mapped = mapValues(args as Record<string, unknown>, mapping, [], problems);
    // A domain error: the domainErrors plugin, wrapped around this one, reports it.
    if (problems.length > 0) throw validationFailed(problems);
    return mapped;
  };
}

/** Each field's mapping, by `Type.field`, as its resolver applies it. */
const idArgumentsByField = new Map<string, IdArgumentsResolver>();

/**
 * A field's arguments as its resolver receives them, for code that reads what
 * a field would read without running its resolver (the planned reads).
 */
export function resolverArguments(
  typeName: string,
  fieldName: string,
  args: Record<string, unknown>,
): Record<string, unknown> {
  return idArgumentsByField.get(`${typeName}.${fieldName}`)?.(args) ?? args;
}

class GlobalIdsPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  private mappingFor(field: PothosOutputFieldConfig<Types>): Mapping<Types> | null {
    return mapInputFields(
      field.args,
      this.buildCache,
      (input: PothosInputFieldConfig<Types>): readonly NodeTypeName[] | null => {
        if (namedScalar(input.type) !== "UUID") return null;
        return (input.extensions?.nodeTypes as NodeTypeName[] | undefined) ?? [];
      },
    );
  }

  private withIds(resolver: Resolver<Types>, mapping: Mapping<Types>): Resolver<Types> {
    const resolveIds = idArgumentsResolver(mapping);
    return (parent, args, context, info) => resolver(parent, resolveIds(args), context, info);
  }

  override wrapResolve(resolver: Resolver<Types>, field: PothosOutputFieldConfig<Types>): Resolver<Types> {
    const mapping = this.mappingFor(field);
    if (!mapping) return resolver;
    idArgumentsByField.set(`${field.parentType}.${field.name}`, idArgumentsResolver(mapping));
    return this.withIds(resolver, mapping);
  }

  override wrapSubscribe(
    subscribe: Resolver<Types> | undefined,
    field: PothosOutputFieldConfig<Types>,
  ): Resolver<Types> | undefined {
    const mapping = subscribe && this.mappingFor(field);
    return subscribe && mapping ? this.withIds(subscribe, mapping) : subscribe;
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      globalIds: GlobalIdsPlugin<Types>;
    }
  }
}

export const globalIdsPlugin = "globalIds";
SchemaBuilder.registerPlugin(globalIdsPlugin, GlobalIdsPlugin);
