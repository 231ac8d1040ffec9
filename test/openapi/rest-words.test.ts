// The REST reference speaks REST: no text of the OpenAPI document names what
// only a GraphQL client sees (connection arguments, enum names, error codes,
// camelCase fields, GraphQL types). Many descriptions come from the GraphQL
// schema, so a new one that speaks GraphQL fails here until the contract says
// it in REST terms (src/contract/descriptions.ts).
import { readFileSync } from "node:fs";
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { REST_DESCRIPTIONS } from "../../src/contract/descriptions.js";
import { buildOpenApiDocument } from "../../src/openapi/document.js";
import { enumSpelling } from "../../src/rest/rest-spelling.js";
import { schema } from "../../src/schema/index.js";

const document = buildOpenApiDocument(schema, { origin: "https://api.example.com" });

/** Every description and summary, with where it is; examples are data, not prose. */
function texts(value: unknown, at: string, found: [string, string][] = []): [string, string][] {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) texts(item, `${at}/${index}`, found);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "example" || key === "examples") continue;
      if ((key === "description" || key === "summary") && typeof child === "string")
        found.push([`${at}/${key}`, child]);
      else texts(child, `${at}/${key}`, found);
    }
  }
  return found;
}

/** The words only GraphQL has, each with why it is one. */
function graphqlVocabulary(): Map<string, string> {
  const words = new Map<string, string>();
  for (const word of ["edges", "node", "nodes"]) words.set(word, "a connection's shape");
  const components = new Set(Object.keys(document.components.schemas));
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    // A type name with two capitals (OrderStatus) unless the document has a schema of that name.
    if (/^[A-Z][a-z]+[A-Z]/.test(type.name) && !components.has(type.name))
      words.set(type.name, "a GraphQL type");
    if (isEnumType(type)) {
      for (const [name, contract] of enumSpelling(type).toContract)
        if (name !== contract) words.set(name, `GraphQL's spelling of ${contract}`);
    }
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        const names = [
          field.name,
          ...("args" in field ? field.args.map(({ name }: { name: string }) => name) : []),
        ];
        for (const name of names)
          if (/[a-z][A-Z]/.test(name)) words.set(name, `a GraphQL name of ${type.name}`);
      }
    }
  }
  // The GraphQL error codes docs/reference/graphql.md lists.
  for (const [, code = ""] of readFileSync("docs/reference/graphql.md", "utf8").matchAll(
    /^\| `([A-Z][A-Z_]+)`/gm,
  ))
    words.set(code, "a GraphQL error code");
  return words;
}

/**
 * Capitalised words a REST text may use: protocols, formats, methods, and the
 * contract's own enum values (`EA`, `IBC`). Any other SCREAMING_CASE word is
 * an enum name or error code in GraphQL's spelling (`ENABLED`, `CONFLICT`).
 */
function restCapitals(): Set<string> {
  const words = new Set(
    ["API", "CAS", "CORS", "GET", "HEAD", "HTTP", "JSON", "MIB", "PATCH", "POST", "DELETE", "REST"].concat([
      "RFC",
      "SQL",
      "URL",
      "UTC",
      "UUID",
      "YYYY",
      "ISO",
      "TLS",
      "DNS",
      "SSRF",
    ]),
  );
  for (const type of Object.values(schema.getTypeMap()))
    if (isEnumType(type)) for (const contract of enumSpelling(type).fromContract.keys()) words.add(contract);
  return words;
}

/** The GraphQL words in `text`: vocabulary words, connection arguments as code, and SCREAMING_CASE names. */
function graphqlWordsIn(text: string, vocabulary: Map<string, string>, capitals: Set<string>): string[] {
  const found: string[] = [];
  const add = (word: string) => {
    if (!found.includes(word)) found.push(word);
  };
  for (const [word = ""] of text.matchAll(/(?<![$\w-])[A-Za-z][A-Za-z0-9_]*(?![\w-])/g)) {
    if (vocabulary.has(word)) add(word);
    else if (/^[A-Z][A-Z0-9_]{2,}$/.test(word) && !capitals.has(word)) add(word);
  }
  for (const [, argument = ""] of text.matchAll(/`(first|last|after|before)`/g)) add(argument);
  return found;
}

describe("the REST reference speaks REST", () => {
  const vocabulary = graphqlVocabulary();
  const capitals = restCapitals();
  const wordsIn = (text: string) => graphqlWordsIn(text, vocabulary, capitals);

  it("knows GraphQL's words when it sees them", () => {
    expect(wordsIn("from `after`, when neither `first` nor `last` is given")).toEqual([
      "after",
      "first",
      "last",
    ]);
    expect(wordsIn("(`endCursor` of the previous page)")).toEqual(["endCursor"]);
    expect(wordsIn("CONFLICT when it is disabled")).toEqual(["CONFLICT"]);
    expect(wordsIn("ENABLED or DISABLED")).toEqual(["ENABLED", "DISABLED"]);
    expect(wordsIn("see OrderStatus and Order.allowedNextStatuses")).toEqual([
      "OrderStatus",
      "allowedNextStatuses",
    ]);
    expect(wordsIn("VALIDATION_FAILED naming the field")).toEqual(["VALIDATION_FAILED"]);
    // REST words stay: the first page, the `cursor` parameter, `order_status`, units, shell variables.
    expect(wordsIn("the first page; `cursor`, `order_status`, kg, EA, MT; curl …/$ORDER_ID")).toEqual([]);
  });

  it("every REST text names a type, field or argument the schema has", () => {
    const stale = Object.keys(REST_DESCRIPTIONS).filter((coordinate) => {
      const [, typeName = "", fieldName, argumentName] =
        /^(\w+)(?:\.(\w+)(?:\((\w+):\))?)?$/.exec(coordinate) ?? [];
      const type = schema.getType(typeName);
      if (!type) return true;
      if (fieldName === undefined) return false;
      if (!isObjectType(type) && !isInputObjectType(type)) return true;
      const field = type.getFields()[fieldName];
      if (!field) return true;
      if (argumentName === undefined) return false;
      return !("args" in field) || !field.args.some(({ name }: { name: string }) => name === argumentName);
    });
    expect(stale).toEqual([]);
  });

  it("no description or summary of the document uses one", () => {
    const found = texts(document, "")
      .map(([at, text]) => ({ at, words: wordsIn(text) }))
      .filter(({ words }) => words.length > 0);
    expect(found).toEqual([]);
  });
});
