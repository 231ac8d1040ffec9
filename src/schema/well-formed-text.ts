// Text that is not well-formed UTF-16 (a lone surrogate, which JSON's
// `"\ud800"` and GraphQL's `"\uD800"` escapes can write) has no UTF-8 form:
// PostgreSQL refuses it in jsonb, and drivers write text columns with U+FFFD
// in its place. This plugin refuses it in every text argument and input field,
// before any resolver runs, as VALIDATION_FAILED naming each field, so that
// both APIs answer it as the client's mistake and nothing is written.
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

/** The scalars whose values are, or may hold, client text. */
const TEXT_SCALARS = new Set(["String", "ID", "JSON"]);

const ILL_FORMED = "must be well-formed Unicode text: it holds a lone surrogate (U+D800 to U+DFFF)";

type Path = (string | number)[];
type Mapping<Types extends SchemaTypes> = InputFieldsMapping<Types, true>;

function checkFields<Types extends SchemaTypes>(
  values: Record<string, unknown>,
  mapping: Mapping<Types>,
  path: Path,
  problems: FieldProblem[],
): void {
  for (const [name, field] of mapping) {
    const value = values[name];
    if (value !== null && value !== undefined) checkField(value, field, [...path, name], problems);
  }
}

function checkField<Types extends SchemaTypes>(
  value: unknown,
  field: InputFieldMapping<Types, true>,
  path: Path,
  problems: FieldProblem[],
): void {
  if (field.kind === "InputObject") {
    const fields = field.fields.map;
    if (!fields) return;
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (item !== null && typeof item === "object") checkFields(item, fields, [...path, index], problems);
      });
    } else if (typeof value === "object" && value !== null) {
      checkFields(value as Record<string, unknown>, fields, path, problems);
    }
    return;
  }
  checkText(value, path, problems);
}

/** A text value, or any list or JSON object holding text, each string checked where it is. */
function checkText(value: unknown, path: Path, problems: FieldProblem[]): void {
  if (typeof value === "string") {
    if (!value.isWellFormed()) problems.push({ path, code: "invalid", message: ILL_FORMED });
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) checkText(item, [...path, index], problems);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, item] of Object.entries(value)) checkText(item, [...path, key], problems);
  }
}

/** Whether a value holds, anywhere, a string that is not well-formed: the resolver's check would refuse it. */
export function holdsIllFormedText(value: unknown): boolean {
  const problems: FieldProblem[] = [];
  checkText(value, [], problems);
  return problems.length > 0;
}

function namedScalar<Types extends SchemaTypes>(type: PothosInputFieldType<Types>): string | null {
  if (type.kind === "List") return namedScalar(type.type);
  if (type.kind !== "Scalar") return null;
  const { ref } = type;
  return typeof ref === "string" ? ref : ((ref as { name?: string }).name ?? null);
}

type Resolver<Types extends SchemaTypes> = GraphQLFieldResolver<unknown, Types["Context"], object>;

class WellFormedTextPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  private mappingFor(field: PothosOutputFieldConfig<Types>): Mapping<Types> | null {
    return mapInputFields(field.args, this.buildCache, (input: PothosInputFieldConfig<Types>) => {
      const scalar = namedScalar(input.type);
      return scalar !== null && TEXT_SCALARS.has(scalar) ? true : null;
    });
  }

  private checking(resolver: Resolver<Types>, mapping: Mapping<Types>): Resolver<Types> {
    return (parent, args, context, info) => {
      const problems: FieldProblem[] = [];
      checkFields(args as Record<string, unknown>, mapping, [], problems);
      // A domain error: the domainErrors plugin, wrapped around this one, reports it.
      if (problems.length > 0) throw validationFailed(problems);
      return resolver(parent, args, context, info);
    };
  }

  override wrapResolve(resolver: Resolver<Types>, field: PothosOutputFieldConfig<Types>): Resolver<Types> {
    const mapping = this.mappingFor(field);
    return mapping ? this.checking(resolver, mapping) : resolver;
  }

  override wrapSubscribe(
    subscribe: Resolver<Types> | undefined,
    field: PothosOutputFieldConfig<Types>,
  ): Resolver<Types> | undefined {
    const mapping = subscribe && this.mappingFor(field);
    return subscribe && mapping ? this.checking(subscribe, mapping) : subscribe;
  }
}

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      wellFormedText: WellFormedTextPlugin<Types>;
    }
  }
}

export const wellFormedTextPlugin = "wellFormedText";
SchemaBuilder.registerPlugin(wellFormedTextPlugin, WellFormedTextPlugin);
