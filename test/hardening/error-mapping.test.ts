// How failures that are not domain refusals reach REST clients.
import { GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { Prisma } from "../../src/db/generated/prisma/client.js";
import { problemFor } from "../../src/rest/errors.js";
import type { GraphQLContext } from "../../src/schema/context.js";
import { overloadedError } from "../../src/schema/domain-errors.js";
import { executeOperation } from "../../src/schema/execution.js";

describe("REST problems from GraphQL errors", () => {
  it("an error a resolver throws without a code is unexpected", async () => {
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: "Query",
        fields: {
          broken: {
            type: GraphQLString,
            resolve: () => {
              throw new Error("connection reset by the database");
            },
          },
        },
      }),
    });
    const result = await executeOperation(schema, parse("{ broken }"), {} as GraphQLContext, {});
    const [error] = result.errors ?? [];
    expect(error?.message).toBe("connection reset by the database");
    expect(problemFor(error as NonNullable<typeof error>, {})).toBeNull();
  });

  it("OVERLOADED is 503 overloaded with Retry-After", () => {
    expect(problemFor(overloadedError(), {})).toMatchObject({
      status: 503,
      code: "overloaded",
      headers: { "retry-after": "1" },
    });
  });

  it("a transaction that cannot start outside any resolver is 503 overloaded too, by the same mapping", () => {
    const notStarted = new Prisma.PrismaClientKnownRequestError(
      "Transaction API error: Unable to start a transaction in the given time.",
      { code: "P2028", clientVersion: Prisma.prismaVersion.client },
    );
    expect(problemFor(notStarted, {})).toMatchObject({
      status: 503,
      code: "overloaded",
      headers: { "retry-after": "1" },
    });
    expect(problemFor(new Error("connection reset by the database"), {})).toBeNull();
  });
});
