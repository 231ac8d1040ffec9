// Random valid query documents over a GraphQL schema, for fuzzing what
// answers them. Everything comes from the schema itself: each Query field,
// each field of each type it reaches (through interfaces and their possible
// types), each argument with values of its type, so a field added to the
// schema is generated without touching this file. A document may use
// several root fields, aliases (a response key selected twice where GraphQL
// merges it), named and inline fragments, variables (with and without
// defaults), `@include`/`@skip` and `__typename`; it is valid and within the
// depth and cost limits the endpoint enforces, or it is not generated.
import fc from "fast-check";
import {
  type GraphQLArgument,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  parse,
  validate,
} from "graphql";
import { operationCost } from "../../src/graphql/cost.js";

/** Values a variable may hold: what a client sends as JSON. */
export type VariableValue =
  | string
  | number
  | boolean
  | null
  | readonly VariableValue[]
  | { readonly [name: string]: VariableValue };

export interface GeneratedDocument {
  text: string;
  variables: Record<string, VariableValue>;
  /** The first root field the operation reads. */
  rootField: string;
}

export interface DocumentOptions {
  /**
   * Values for arguments and variables of each scalar type, by its name (a
   * list may repeat a value to make it likelier). A scalar without values
   * fails the generator, so that a new scalar is given some.
   */
  scalars: Readonly<Record<string, readonly VariableValue[]>>;
  /** Deepest nesting of fields (the root field is 1), as GRAPHQL_MAX_DEPTH. */
  maxDepth: number;
  /** Highest cost (src/graphql/cost.ts) with the variables' values, as GRAPHQL_MAX_COST. */
  maxCost: number;
  /** How often a Query field is the root, against the others (1 when not given). */
  rootWeight?: (field: GraphQLField<unknown, unknown>) => number;
}

type Pick = <Value>(values: readonly Value[]) => Value;

/** An integer without fast-check's lean to small ones, which would make every `chance` likely. */
const uniformInteger = (min: number, max: number) => fc.noBias(fc.integer({ min, max }));

/** The random choices of one document, drawn through fast-check so that a failing case replays and shrinks. */
class Choices {
  constructor(private readonly draw: fc.GeneratorValue) {}

  int(min: number, max: number): number {
    return this.draw(uniformInteger, min, max);
  }

  chance(probability: number): boolean {
    return this.int(0, 999) < probability * 1000;
  }

  readonly pick: Pick = (values) => {
    const value = values[this.int(0, values.length - 1)];
    if (value === undefined) throw new Error("nothing to pick from");
    return value;
  };

  /** Some of `values` (at least `min`), in a random order. */
  some<Value>(values: readonly Value[], min: number, max: number): Value[] {
    const left = [...values];
    const count = this.int(Math.min(min, left.length), Math.min(max, left.length));
    const chosen: Value[] = [];
    for (let index = 0; index < count; index += 1)
      chosen.push(...left.splice(this.int(0, left.length - 1), 1));
    return chosen;
  }
}

/** The response keys already selected at one place, with the field and arguments each stands for. */
type Keys = Map<string, { field: string; args: string; nested: Keys }>;

/** How far each feature goes in one document: a plain document uses only fields, arguments and aliases. */
interface Style {
  rich: boolean;
}

class DocumentBuilder {
  private readonly variableDefinitions: string[] = [];
  readonly variables: Record<string, VariableValue> = {};
  private readonly fragments: string[] = [];

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly options: DocumentOptions,
    private readonly choose: Choices,
    private readonly style: Style,
  ) {}

  /**
   * A query reading `root`, maybe other root fields drawn from `roots` (the
   * same one again, under its own key or merged), and `__typename` beside
   * them or alone.
   */
  document(root: GraphQLField<unknown, unknown>, roots: readonly GraphQLField<unknown, unknown>[]): string {
    const query = this.schema.getQueryType();
    if (!query) throw new Error("the schema has no Query type");
    const keys: Keys = new Map();
    const selections: string[] = [];
    if (!this.choose.chance(0.02)) {
      selections.push(this.field(root, 1, keys));
      // Often the same field again (a dashboard's tiles), so that a document planned alone is planned twice.
      const more = this.choose.chance(0.3) ? this.choose.int(1, 2) : 0;
      for (let count = 0; count < more; count += 1)
        selections.push(this.field(this.choose.chance(0.5) ? root : this.choose.pick(roots), 1, keys));
    }
    if (selections.length === 0 || this.choose.chance(this.style.rich ? 0.15 : 0.05))
      selections.splice(this.choose.int(0, selections.length), 0, this.typename(query));
    const variables = this.variableDefinitions.length > 0 ? `(${this.variableDefinitions.join(", ")})` : "";
    return [`query Fuzz${variables} {\n${selections.join("\n")}\n}`, ...this.fragments].join("\n");
  }

  private typename(type: GraphQLCompositeType): string {
    return this.style.rich && this.choose.chance(0.3)
      ? `${type.name[0]?.toLowerCase()}Type: __typename`
      : "__typename";
  }

  /** One field of `parent`, with arguments, maybe an alias and directives, and a selection of its own. */
  private field(field: GraphQLField<unknown, unknown>, depth: number, keys: Keys): string {
    const args = this.argumentsOf(field.args);
    let key = field.name;
    if (this.choose.chance(0.2)) key = `${field.name}${this.choose.pick(["A", "B"])}`;
    let known = keys.get(key);
    // A key already standing for another field or other arguments takes an alias of its own.
    if (known && (known.field !== field.name || known.args !== args)) {
      key = `${field.name}${keys.size}${depth}`;
      known = keys.get(key);
    }
    const nested: Keys = known?.nested ?? new Map();
    keys.set(key, { field: field.name, args, nested });
    const named = getNamedType(field.type);
    const selection = isCompositeType(named) ? ` {\n${this.selectionOf(named, depth + 1, nested)}\n}` : "";
    const alias = key === field.name ? "" : `${key}: `;
    return `${alias}${field.name}${args}${this.directives()}${selection}`;
  }

  private directives(): string {
    if (!this.style.rich || !this.choose.chance(0.1)) return "";
    const name = this.choose.pick(["include", "skip"]);
    const condition = this.choose.chance(0.5)
      ? String(this.choose.chance(0.5))
      : this.variable("Boolean!", this.choose.chance(0.5));
    return ` @${name}(if: ${condition})`;
  }

  /** A new variable of `type` holding `value`, or given the value as its default (and none sent). */
  private variable(type: string, value: VariableValue): string {
    const name = `$v${this.variableDefinitions.length}`;
    if (!type.endsWith("!") && this.choose.chance(0.2)) {
      this.variableDefinitions.push(`${name}: ${type} = ${literal(value)}`);
      return name;
    }
    this.variableDefinitions.push(`${name}: ${type}`);
    // A nullable variable left out is null, or its default.
    if (!(value === null && !type.endsWith("!") && this.choose.chance(0.5)))
      this.variables[name.slice(1)] = value;
    return name;
  }

  /** The text of a field's arguments: each required one, and some others, as literals or variables. */
  private argumentsOf(args: readonly GraphQLArgument[]): string {
    const given = args.filter(
      (arg) => (isNonNullType(arg.type) && arg.defaultValue === undefined) || this.choose.chance(0.4),
    );
    if (given.length === 0) return "";
    const parts = given.map((arg) => {
      const value = this.valueOf(arg.type);
      const text = this.choose.chance(0.5) ? literal(value) : this.variable(String(arg.type), value);
      return `${arg.name}: ${text}`;
    });
    return `(${parts.join(", ")})`;
  }

  /** A value of an input type, as a variable holds it. */
  private valueOf(type: GraphQLInputType): VariableValue {
    if (!isNonNullType(type) && this.choose.chance(0.1)) return null;
    const inner = getNullableType(type);
    if (isListType(inner)) {
      const count = this.choose.int(0, 3);
      return Array.from({ length: count }, () => this.valueOf(inner.ofType));
    }
    if (isInputObjectType(inner)) {
      const value: Record<string, VariableValue> = {};
      for (const field of Object.values(inner.getFields()))
        if ((isNonNullType(field.type) && field.defaultValue === undefined) || this.choose.chance(0.4))
          value[field.name] = this.valueOf(field.type);
      return value;
    }
    if (isEnumType(inner)) return this.choose.pick(inner.getValues()).name;
    if (isScalarType(inner)) {
      const values = this.options.scalars[inner.name];
      if (!values?.length) throw new Error(`no values given for the scalar ${inner.name}`);
      return this.choose.pick(values);
    }
    throw new Error(`${String(type)} is no input type`);
  }

  /** The selection of a composite type at `depth`: some of its fields, and for an abstract type its possible types'. */
  private selectionOf(type: GraphQLCompositeType, depth: number, keys: Keys): string {
    const selections: string[] = [];
    const fields = isAbstractType(type) && !isInterfaceType(type) ? [] : Object.values(type.getFields());
    const reachable = fields.filter(
      (field) => depth < this.options.maxDepth || isLeafType(getNamedType(field.type)),
    );
    for (const field of this.choose.some(reachable, 1, depth <= 3 ? 8 : 4))
      selections.push(this.field(field, depth, keys));
    if (isAbstractType(type)) {
      for (const possible of this.choose.some(this.schema.getPossibleTypes(type), 1, 3))
        selections.push(`... on ${possible.name} {\n${this.selectionOf(possible, depth, keys)}\n}`);
    }
    if (selections.length === 0 || (this.style.rich && this.choose.chance(0.1)))
      selections.push(this.typename(type));
    if (!this.style.rich) return selections.join("\n");
    return this.regrouped(type, selections, depth, keys).join("\n");
  }

  /** Rich features over a place's selections: a repeated key, fragments (inline, named, without a type). */
  private regrouped(type: GraphQLCompositeType, selections: string[], depth: number, keys: Keys): string[] {
    const out = [...selections];
    if (this.choose.chance(0.15)) {
      // The same key again, merged by execution: a field of the same name and arguments, its selection drawn anew.
      const fields = isAbstractType(type) && !isInterfaceType(type) ? [] : Object.values(type.getFields());
      const again = [...keys.entries()].filter(([, known]) =>
        fields.some((field) => field.name === known.field),
      );
      if (again.length > 0) {
        const [key, known] = this.choose.pick(again);
        const field = fields.find((candidate) => candidate.name === known.field);
        const named = field && getNamedType(field.type);
        if (field && named) {
          const selection = isCompositeType(named)
            ? ` {\n${this.selectionOf(named, depth + 1, known.nested)}\n}`
            : "";
          const alias = key === field.name ? "" : `${key}: `;
          out.push(`${alias}${field.name}${known.args}${selection}`);
        }
      }
    }
    if (out.length > 1 && this.choose.chance(0.25)) {
      const start = this.choose.int(0, out.length - 1);
      const end = this.choose.int(start + 1, out.length);
      const grouped = out.slice(start, end).join("\n");
      const wrapped =
        this.choose.chance(0.4) && isObjectType(type)
          ? this.namedFragment(type, grouped)
          : `... ${this.choose.chance(0.5) ? `on ${this.conditionOf(type)} ` : ""}${this.directives().trimStart()}{\n${grouped}\n}`;
      out.splice(start, end - start, wrapped);
    }
    return out;
  }

  /** A type condition holding for `type`: its own name, or an interface it implements. */
  private conditionOf(type: GraphQLCompositeType): string {
    const interfaces = isObjectType(type) ? type.getInterfaces() : [];
    return interfaces.length > 0 && this.choose.chance(0.3) ? this.choose.pick(interfaces).name : type.name;
  }

  private namedFragment(type: GraphQLNamedType, selection: string): string {
    const name = `F${this.fragments.length}`;
    this.fragments.push(`fragment ${name} on ${type.name} {\n${selection}\n}`);
    return `...${name}${this.directives()}`;
  }
}

/** A value as a GraphQL literal (strings JSON-escaped, which GraphQL reads alike). */
function literal(value: VariableValue): string {
  if (value === null) return "null";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(literal).join(", ")}]`;
  return `{${Object.entries(value)
    .map(([name, item]) => `${name}: ${literal(item)}`)
    .join(", ")}}`;
}

/**
 * Documents over `schema`'s Query fields with their variables, each valid
 * (graphql-js validation) and within `maxCost` with its variables' values.
 * About half are plain (fields, arguments, aliases); the others also use
 * fragments, directives, `__typename` and repeated keys.
 */
export function queryDocuments(
  schema: GraphQLSchema,
  options: DocumentOptions,
): fc.Arbitrary<GeneratedDocument> {
  const query = schema.getQueryType();
  if (!query) throw new Error("the schema has no Query type");
  const fields = Object.values(query.getFields());
  const roots = fields.map((field) => ({
    weight: options.rootWeight?.(field) ?? 1,
    arbitrary: fc.constant(field),
  }));
  // Each field as often as its weight, for the root fields drawn beside the first.
  const weighted = fields.flatMap((field) =>
    Array.from({ length: options.rootWeight?.(field) ?? 1 }, () => field),
  );
  return fc
    .tuple(fc.oneof(...roots), fc.boolean(), fc.gen())
    .map(([root, rich, draw]) => {
      const builder = new DocumentBuilder(schema, options, new Choices(draw), { rich });
      const text = builder.document(root, weighted);
      return { text, variables: builder.variables, rootField: root.name };
    })
    .filter((generated) => problemsOf(schema, generated, options.maxCost).length === 0);
}

/** Why a generated document is not one the endpoint would run: validation errors, or its cost over the limit. */
export function problemsOf(schema: GraphQLSchema, generated: GeneratedDocument, maxCost: number): string[] {
  const document = parse(generated.text);
  const errors = validate(schema, document).map((error) => error.message);
  if (errors.length > 0) return errors;
  const cost = operationCost(schema, document, null, generated.variables);
  if (cost.kind === "unpriceable") return [cost.reason];
  if (cost.kind === "priced" && cost.cost > maxCost) return [`cost ${cost.cost} over ${maxCost}`];
  return [];
}
