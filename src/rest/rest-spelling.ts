import {
  type GraphQLEnumType,
  type GraphQLInputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
} from "graphql";

/** firstName → first_name, tagIds → tag_ids. */
export function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** The contract's spelling of each GraphQL enum value, and back (`extensions.contractValue`). */
export interface EnumSpelling {
  toContract: Map<string, string>;
  fromContract: Map<string, string>;
}

const spellings = new WeakMap<GraphQLEnumType, EnumSpelling>();

export function enumSpelling(type: GraphQLEnumType): EnumSpelling {
  let spelling = spellings.get(type);
  if (!spelling) {
    spelling = { toContract: new Map(), fromContract: new Map() };
    for (const value of type.getValues()) {
      const contract = (value.extensions as { contractValue?: string }).contractValue ?? value.name;
      spelling.toContract.set(value.name, contract);
      spelling.fromContract.set(contract, value.name);
    }
    spellings.set(type, spelling);
  }
  return spelling;
}

/** The type found at `path` inside a value of `type` (list indexes step into items). */
export function inputTypeAtPath(
  type: GraphQLInputType,
  path: readonly (string | number)[],
): GraphQLInputType {
  let current: GraphQLInputType = type;
  for (const segment of path) {
    if (isNonNullType(current)) current = current.ofType;
    if (typeof segment === "number" && isListType(current)) {
      current = current.ofType;
    } else if (typeof segment === "string" && isInputObjectType(current)) {
      const field = current.getFields()[segment];
      if (!field) return current;
      current = field.type;
    }
  }
  return current;
}

const EXPECTED_SCALAR: Record<string, string> = {
  String: "must be a string",
  Int: "must be a whole number",
  Float: "must be a number",
  Boolean: "must be true or false",
  UUID: "must be a UUID",
  Date: "must be a date in the form YYYY-MM-DD",
  DateTime: "must be a date-time such as 2025-01-31T09:30:00.000Z",
};

/** What a value of `type` must look like, in words a REST client understands. */
export function describeExpected(type: GraphQLInputType): string {
  if (isNonNullType(type)) return describeExpected(type.ofType);
  if (isListType(type)) return "must be an array";
  const named = getNamedType(type);
  if (isEnumType(named)) return `must be one of: ${[...enumSpelling(named).fromContract.keys()].join(", ")}`;
  if (isInputObjectType(named)) return "must be an object";
  return EXPECTED_SCALAR[named.name] ?? `must be a valid ${named.name}`;
}
