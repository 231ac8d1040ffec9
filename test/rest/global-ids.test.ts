// docs/design/decisions.md §3 "Ids": every id the REST API takes, in a path, a query
// or a body, is the record's UUID or, for a record with one, its global ID,
// and the OpenAPI document says which.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PREFIX } from "../../src/contract/route.js";
import { routes } from "../../src/contract/routes.js";
import { OPENAPI_PATH } from "../../src/openapi/document.js";
import type { JsonSchema, OpenApiDocument, Parameter } from "../../src/openapi/types.js";
import { encodeGlobalId, type NodeTypeName } from "../../src/schema/global-ids.js";
import { callApi, createTestApp, type TestApp } from "../support/test-app.js";
import { expectProblem, idsOf } from "./helpers.js";
import { pathOf, type RouteFixtures, seedRouteFixtures } from "./route-fixtures.js";

const ID_OR_GLOBAL_ID = "#/components/schemas/IdOrGlobalId";
const routesWithIds = routes.filter((route) => route.path.includes("{"));

describe("global IDs in the REST API", { timeout: 60_000 }, () => {
  let harness: TestApp;
  let fixtures: RouteFixtures;
  let document: OpenApiDocument;

  beforeAll(async () => {
    harness = await createTestApp();
    fixtures = await seedRouteFixtures(harness);
    document = (await (await harness.app.fetch(`http://localhost${OPENAPI_PATH}`)).json()) as OpenApiDocument;
  });
  afterAll(async () => {
    await harness?.close();
  });

  const call = (method: string, path: string, body?: unknown, key = fixtures.buyer.apiKey) =>
    callApi(harness.app, method, path, { key, body });

  /** The same call with each path id written by `write` (given the UUID and its record's Node type). */
  async function callWith(
    route: (typeof routes)[number],
    write: (uuid: string, nodeType: NodeTypeName | null, name: string) => string,
    key?: string,
  ) {
    const path = await pathOf(route, async (name) => {
      const record = fixtures.pathRecord(route, name);
      return write(await record.id(), record.nodeType, name);
    });
    return call(route.method, path, fixtures.validBody(route), key);
  }

  const otherType = (nodeType: NodeTypeName | null): NodeTypeName =>
    nodeType === "Order" ? "BuyerProduct" : "Order";

  describe.each(routesWithIds.map((route) => [`${route.method} ${route.path}`, route] as const))(
    "%s",
    (_name, route) => {
      const nodeTypes = () =>
        Object.keys(route.pathParameters ?? {}).map((name) => fixtures.pathRecord(route, name).nodeType);

      it("the document says whether the path id takes a global ID, as the service does", () => {
        const operation = document.paths[`${API_PREFIX}${route.path}`]?.[route.method.toLowerCase() as "get"];
        const pathParameters = (operation?.parameters ?? []).filter(
          (parameter): parameter is Parameter => "in" in parameter && parameter.in === "path",
        );
        expect(pathParameters.length).toBeGreaterThan(0);
        for (const parameter of pathParameters) {
          const { nodeType } = fixtures.pathRecord(route, parameter.name);
          expect(parameter.schema).toEqual(
            nodeType ? { $ref: ID_OR_GLOBAL_ID } : { type: "string", format: "uuid" },
          );
          expect(/global ID/.test(parameter.description ?? "")).toBe(nodeType !== null);
        }
      });

      it("a global ID of the record answers as its UUID does", async () => {
        if (nodeTypes().every((type) => type === null)) return;
        const byUuid = await callWith(route, (uuid) => uuid);
        expect(byUuid.status).toBeLessThan(300);
        const byGlobalId = await callWith(route, (uuid, type) => (type ? encodeGlobalId(type, uuid) : uuid));
        expect(byGlobalId.status).toBe(byUuid.status);
        if (route.method === "GET") expect(byGlobalId.body).toEqual(byUuid.body);
      });

      it("another organisation's record is 404 by its global ID as by its UUID", async () => {
        if (nodeTypes().every((type) => type === null)) return;
        const { other } = fixtures;
        const response = await callWith(
          route,
          (uuid, type) => (type ? encodeGlobalId(type, uuid) : uuid),
          other.apiKey,
        );
        expectProblem(response, 404, "not_found");
      });

      it("a global ID of another type, or text that is no id, is 404", async () => {
        const wrongType = await callWith(route, (uuid, type) => encodeGlobalId(otherType(type), uuid));
        expectProblem(wrongType, 404, "not_found");
        expectProblem(await callWith(route, () => "not-an-id"), 404, "not_found");
      });
    },
  );

  it("ids in a query or a body take a global ID where the document says so", async () => {
    const { buyer } = fixtures;
    const productGlobalId = encodeGlobalId("BuyerProduct", buyer.buyerProductId);
    const byUuid = await call("GET", `/buyer_product_approvals?buyer_product_id=${buyer.buyerProductId}`);
    const byGlobalId = await call("GET", `/buyer_product_approvals?buyer_product_id=${productGlobalId}`);
    expect(idsOf(byUuid)).toEqual([buyer.approvalId]);
    expect(byGlobalId.body).toEqual(byUuid.body);
    const tagged = await call("POST", "/taggings", {
      taggable_id: productGlobalId,
      tag_ids: [buyer.tagIds[1]],
    });
    expect(tagged.status).toBe(201);
    expect(tagged.body).toMatchObject({ taggable_id: buyer.buyerProductId });
    const wrongType = await call(
      "GET",
      `/buyer_product_approvals?buyer_product_id=${encodeGlobalId("Order", fixtures.orderId)}`,
    );
    expectProblem(wrongType, 422, "validation_failed", [["buyer_product_id", "invalid"]]);
  });

  it("every id the document describes as taking a global ID has the schema that says so, and no other does", () => {
    const mismatches: string[] = [];
    const check = (where: string, schema: JsonSchema | undefined, description: string | undefined) => {
      if (!schema) return;
      const items = schema.type === "array" ? schema.items : schema;
      const takesGlobalIds = items?.$ref === ID_OR_GLOBAL_ID;
      if (takesGlobalIds !== /global ID/.test(description ?? "")) mismatches.push(where);
    };
    for (const [path, item] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(item))
        for (const parameter of operation.parameters)
          if ("in" in parameter)
            check(`${method} ${path} ${parameter.name}`, parameter.schema, parameter.description);
    for (const [name, schema] of Object.entries(document.components.schemas))
      if (name.endsWith("Request") || name.endsWith("Input"))
        for (const [property, value] of Object.entries(schema.properties ?? {}))
          check(`${name}.${property}`, value, value.description);
    expect(mismatches).toEqual([]);
  });
});
