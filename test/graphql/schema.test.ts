// The schema as front-end teams see it: the committed schema.graphql matches
// the code, and every type, field, argument and enum value says what it is.
import { readFileSync } from "node:fs";
import {
  type GraphQLArgument,
  type GraphQLNamedType,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
} from "graphql";
import { describe, expect, it } from "vitest";
import { printSchemaFile, SCHEMA_FILE } from "../../src/graphql/schema-file.js";
import { schema } from "../../src/schema/index.js";

function undocumented(): string[] {
  const missing: string[] = [];
  const check = (where: string, description: string | null | undefined) => {
    if (!description?.trim()) missing.push(where);
  };
  const checkArgs = (where: string, args: readonly GraphQLArgument[]) => {
    for (const arg of args) check(`${where}(${arg.name})`, arg.description);
  };
  for (const type of Object.values(schema.getTypeMap()) as GraphQLNamedType[]) {
    if (type.name.startsWith("__")) continue;
    check(type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type)) {
      for (const field of Object.values(type.getFields())) {
        check(`${type.name}.${field.name}`, field.description);
        checkArgs(`${type.name}.${field.name}`, field.args);
      }
    } else if (isInputObjectType(type)) {
      for (const field of Object.values(type.getFields()))
        check(`${type.name}.${field.name}`, field.description);
    } else if (isEnumType(type)) {
      for (const value of type.getValues()) check(`${type.name}.${value.name}`, value.description);
    }
  }
  return missing;
}

describe("GraphQL schema", () => {
  it("is committed as schema.graphql exactly as the code prints it (npm run schema:print)", () => {
    const committed = readFileSync(SCHEMA_FILE, "utf8");
    expect(committed === printSchemaFile(), "schema.graphql is stale: run `npm run schema:print`").toBe(true);
  });

  it("describes every type, field, argument, input field and enum value", () => {
    expect(undocumented()).toEqual([]);
  });

  it("offers subscriptions and every list as a connection with totalCount", () => {
    expect(schema.getSubscriptionType()?.getFields().orderUpdated).toBeDefined();
    const query = schema.getQueryType()?.getFields() ?? {};
    for (const name of [
      "orders",
      "buyerProducts",
      "buyerProductApprovals",
      "tags",
      "tagGroups",
      "suppliers",
    ]) {
      const type = query[name]?.type.toString() ?? "";
      expect(type, name).toMatch(/Connection!$/);
      const connection = schema.getType(type.replace(/!$/, ""));
      expect(isObjectType(connection) && Object.keys(connection.getFields()), name).toEqual(
        expect.arrayContaining(["edges", "pageInfo", "totalCount"]),
      );
    }
  });
});
