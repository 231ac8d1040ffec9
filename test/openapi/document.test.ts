// The OpenAPI document: valid OpenAPI 3.1, generated from the route table and
// the GraphQL schema, with examples that fit it. How the app serves it is in
// served-document.test.ts.
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { API_PREFIX, type RestRoute } from "../../src/contract/route.js";
import { routes } from "../../src/contract/routes.js";
import { withCodeSamples } from "../../src/http/code-samples.js";
import { buildOpenApiDocument, OPENAPI_PATH } from "../../src/openapi/document.js";
import type { JsonSchema, OpenApiDocument, Operation, Parameter } from "../../src/openapi/types.js";
import { schema } from "../../src/schema/index.js";
import { contract } from "../support/contract.js";

/** The public origin the app is configured with in tests. */
const PUBLIC_BASE_URL = "http://localhost";
const origin = PUBLIC_BASE_URL;

function operations(document: OpenApiDocument): [string, string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, string, Operation] => [path, method, operation]),
  );
}

function componentSchema(document: OpenApiDocument, name: string): JsonSchema {
  const found = document.components.schemas[name];
  if (!found) throw new Error(`no component ${name}`);
  return found;
}

describe("the OpenAPI document", () => {
  // As a client receives it: the app serves this document's JSON.
  const served = JSON.parse(
    JSON.stringify(withCodeSamples(buildOpenApiDocument(schema, { origin }), OPENAPI_PATH)),
  ) as OpenApiDocument;

  it("is OpenAPI 3.1 for the API's v1", () => {
    expect(served.openapi).toBe("3.1.0");
    expect(served.info.version).toBe("v1");
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(
      structuredClone(served) as unknown as Record<string, unknown>,
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("describes every REST operation with its method, path, operationId and summary", () => {
    const described = operations(served).map(([path, method, operation]) => ({
      path,
      method: method.toUpperCase(),
      operationId: operation.operationId,
      summary: operation.summary,
    }));
    expect(described).toHaveLength(routes.length);
    expect(described).toEqual(
      expect.arrayContaining(
        routes.map((route) => ({
          path: `${API_PREFIX}${route.path}`,
          method: route.method,
          operationId: route.operationId,
          summary: route.summary,
        })),
      ),
    );
    // The whole path in each path, the public origin as the server: generators that ignore servers still call the right path.
    expect(served.servers).toEqual([{ url: PUBLIC_BASE_URL, description: expect.any(String) }]);
  });

  it("requires the X-API-KEY header on every operation", () => {
    expect(served.components.securitySchemes.ApiKey).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-API-KEY",
    });
    expect(served.security).toEqual([{ ApiKey: [] }]);
  });

  it("gives every request body, response and parameter an example that fits its schema", () => {
    const checker = contract();
    const misfits: string[] = [];
    const check = (where: string, schemaObject: JsonSchema, value: unknown) => {
      const problems = checker.problemsWith(schemaObject, value);
      if (problems) misfits.push(`${where}:\n${problems}`);
    };
    let examples = 0;
    for (const [path, method, operation] of operations(served)) {
      const label = `${method.toUpperCase()} ${path}`;
      for (const [mediaType, content] of Object.entries(operation.requestBody?.content ?? {})) {
        expect(Object.keys(content.examples), `${label} request ${mediaType}`).not.toHaveLength(0);
        for (const example of Object.values(content.examples)) {
          check(`${label} request`, content.schema, example.value);
          examples++;
        }
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = Object.values(response.content ?? {});
        // 204 No Content and 304 Not Modified have no body to describe.
        expect(media, `${label} ${status}`).toHaveLength(status === "204" || status === "304" ? 0 : 1);
        for (const content of media) {
          expect(Object.keys(content.examples), `${label} ${status}`).not.toHaveLength(0);
          for (const [name, example] of Object.entries(content.examples)) {
            check(`${label} ${status} ${name}`, content.schema, example.value);
            examples++;
          }
        }
      }
      for (const parameter of operation.parameters.filter((item): item is Parameter => !("$ref" in item))) {
        check(`${label} parameter ${parameter.name}`, parameter.schema, parameter.example);
      }
    }
    for (const parameter of Object.values(served.components.parameters)) {
      check(`parameter ${parameter.name}`, parameter.schema, parameter.example);
    }
    expect(misfits).toEqual([]);
    expect(examples).toBeGreaterThan(50);
  });

  it("documents each operation's errors as application/problem+json with its problem schema", () => {
    for (const [path, method, operation] of operations(served)) {
      const errorStatuses = Object.keys(operation.responses).filter((status) => Number(status) >= 400);
      expect(errorStatuses, `${method} ${path}`).toEqual(
        expect.arrayContaining(["401", "422", "429", "500"]),
      );
      for (const status of errorStatuses) {
        const content = operation.responses[status]?.content?.["application/problem+json"];
        const name = `${operation.operationId.charAt(0).toUpperCase()}${operation.operationId.slice(1)}Problem`;
        expect(content?.schema, `${method} ${path} ${status}`).toEqual({
          $ref: `#/components/schemas/${name}`,
        });
      }
      const [success] = Object.entries(operation.responses).filter(([status]) => Number(status) < 300);
      expect(Object.keys(success?.[1].headers ?? {})).toEqual(
        expect.arrayContaining(["X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]),
      );
      expect(Object.keys(operation.responses["429"]?.headers ?? {})).toContain("Retry-After");
    }
    expect(componentSchema(served, "Problem").required).toEqual([
      "type",
      "title",
      "status",
      "detail",
      "code",
      "request_id",
    ]);
    const patch = served.paths[`${API_PREFIX}/orders/{id}`]?.patch;
    expect(Object.keys(patch?.responses ?? {})).toEqual(
      expect.arrayContaining(["200", "400", "404", "409", "413", "415"]),
    );
    expect(
      Object.keys(served.paths[`${API_PREFIX}/suppliers/{supplier_id}/users`]?.post?.responses ?? {}),
    ).toEqual(expect.arrayContaining(["201", "404", "409", "422"]));
  });

  it("takes Idempotency-Key on POST operations only, and X-Request-Id on all", () => {
    for (const [, method, operation] of operations(served)) {
      const refs = operation.parameters.flatMap((parameter) => ("$ref" in parameter ? [parameter.$ref] : []));
      expect(refs).toContain("#/components/parameters/RequestId");
      expect(refs.includes("#/components/parameters/IdempotencyKey")).toBe(method === "post");
    }
  });

  it("spells fields and enum values as the contract does, with its nullability", () => {
    const product = componentSchema(served, "CreateBuyerProductResponse");
    expect(product.properties?.product_type?.enum).toEqual(
      expect.arrayContaining(["Raw Material", "Dye", "Fragrance", "Other", "Packaging"]),
    );
    expect(product.properties?.measurement_unit?.enum).toEqual(
      expect.arrayContaining(["EA", "L", "MT", "g", "kg", "mL"]),
    );
    expect(product.properties?.container_type?.enum).toContain("Bulk Bag");
    expect(product.properties?.container_type?.type).toEqual(["string", "null"]);
    expect(product.properties?.raw_material_name?.type).toEqual(["string", "null"]);
    expect(product.properties?.created_at).toMatchObject({ type: "string", format: "date-time" });
    expect(product.properties?.id).toMatchObject({ type: "string", format: "uuid" });
    expect(product.properties?.auto_match).toMatchObject({ $ref: "#/components/schemas/AutoMatch" });
    expect(product.required).toEqual(
      expect.arrayContaining(["id", "product_id", "auto_match", "document_types"]),
    );

    const order = componentSchema(served, "Order");
    expect(order.properties?.quantity?.type).toBe("number");
    expect(order.properties?.order_status?.enum).toEqual(
      expect.arrayContaining(["quote_selected", "order_placed", "in_warehouse", "delivered"]),
    );
    expect(order.properties?.placed_at?.type).toEqual(["string", "null"]);

    const request = componentSchema(served, "CreateBuyerProductRequest");
    expect([...(request.required ?? [])].sort()).toEqual([
      "measurement_unit",
      "product_type",
      "raw_material_name",
    ]);
    expect(request.properties?.product_type?.enum).toContain("Raw Material");
    expect(request.properties?.document_types?.items?.enum).toContain("fssc_22000");

    const supplierUser = componentSchema(served, "CreateSupplierUserRequest");
    expect(Object.keys(supplierUser.properties ?? {}).sort()).toEqual([
      "contact_email",
      "first_name",
      "last_name",
    ]);
    expect([...(supplierUser.required ?? [])].sort()).toEqual(["contact_email", "first_name", "last_name"]);
  });

  it("answers the list operations with a bare array of items, paged with Link", () => {
    for (const path of ["/orders", "/buyer_product_approvals"]) {
      const response = served.paths[`${API_PREFIX}${path}`]?.get?.responses["200"];
      expect(response?.content?.["application/json"]?.schema.type).toBe("array");
      expect(Object.keys(response?.headers ?? {})).toContain("Link");
    }
    const parameters = (served.paths[`${API_PREFIX}/orders`]?.get?.parameters ?? []).filter(
      (parameter): parameter is Parameter => !("$ref" in parameter),
    );
    expect(parameters.map((parameter) => parameter.name)).toEqual([
      "limit",
      "cursor",
      "created_at_from",
      "created_at_to",
      "order_status[]",
    ]);
    expect(parameters.find((parameter) => parameter.name === "order_status[]")).toMatchObject({
      in: "query",
      style: "form",
      explode: true,
      schema: { type: "array", items: { type: "string", enum: expect.arrayContaining(["in_transit"]) } },
    });
    expect(parameters.find((parameter) => parameter.name === "created_at_from")?.schema).toEqual({
      type: "string",
      format: "date",
    });
    expect(parameters.find((parameter) => parameter.name === "limit")?.schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 500,
    });
  });
});

describe("generating the document", () => {
  const listOrders = routes.find((route) => route.operationId === "listOrders");
  if (!listOrders) throw new Error("no listOrders route");
  const ORDER_ID = "c41a7e92-5b3d-4f6e-a8c1-9d0e2f4a6b83";

  it("follows the route's GraphQL selection: a field the route does not select is not documented", () => {
    const narrow = {
      ...listOrders,
      document: `query ListOrders($first: Int, $after: String, $filter: OrderFilter) {
        orders(first: $first, after: $after, filter: $filter) {
          edges { node { id: databaseId order_status: orderStatus } }
          pageInfo { hasNextPage endCursor }
        }
      }`,
    };
    const document = buildOpenApiDocument(schema, { origin, routes: [narrow] });
    expect(componentSchema(document, "Order")).toMatchObject({
      properties: { id: { format: "uuid" }, order_status: { type: "string" } },
      required: ["id", "order_status"],
    });
    expect(Object.keys(componentSchema(document, "Order").properties ?? {})).toEqual(["id", "order_status"]);
  });

  it("refuses to start when an entry sends a query parameter to no input field, or lists what is no list", () => {
    const misrouted = {
      ...listOrders,
      query: [{ name: "order_status", to: "filter.status", example: ["delivered"] }],
    };
    expect(() => buildOpenApiDocument(schema, { origin, routes: [misrouted] })).toThrow(
      /REST route listOrders: filter.status is no input field/,
    );
    const notAList = {
      ...listOrders,
      query: [{ name: "cursor", to: "after", example: ["x"] }],
    };
    expect(() => buildOpenApiDocument(schema, { origin, routes: [notAList] })).toThrow(
      /cursor: its example does not fit its type/,
    );
  });

  it("documents a new route from its one table entry: GET /orders/{id}", () => {
    const updateOrder = routes.find((route) => route.operationId === "updateOrder");
    if (!updateOrder) throw new Error("no updateOrder route");
    const getOrder: RestRoute = {
      operationId: "getOrder",
      method: "GET",
      path: "/orders/{id}",
      document: updateOrder.document
        .replace("mutation UpdateOrder($id: UUID!, $input: UpdateOrderInput!)", "query GetOrder($id: UUID!)")
        .replace("updateOrder(id: $id, input: $input)", "order(id: $id)"),
      pathParameters: { id: { example: ORDER_ID } },
      success: { description: "The order." },
      summary: "Get an order",
      tag: "Orders",
      description: "One of your organisation's orders.",
      problems: { not_found: "The order does not exist or is not your organisation's." },
    };
    const document = buildOpenApiDocument(schema, { origin, routes: [updateOrder, getOrder] });
    const operation = document.paths[`${API_PREFIX}/orders/{id}`]?.get;
    expect(operation?.parameters).toContainEqual(
      expect.objectContaining({
        name: "id",
        in: "path",
        schema: { $ref: "#/components/schemas/IdOrGlobalId" },
      }),
    );
    expect(operation?.requestBody).toBeUndefined();
    const ok = operation?.responses["200"];
    expect(ok?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Order" });
    expect(Object.keys(ok?.headers ?? {})).not.toContain("Link");
    expect(Object.keys(operation?.responses ?? {})).toEqual([
      "200",
      "304",
      "400",
      "401",
      "404",
      "408",
      "422",
      "429",
      "431",
      "500",
      "503",
    ]);
    // Both routes select the same fields of Order, so they share one schema.
    expect(Object.keys(document.components.schemas).filter((name) => /^Order\d*$/.test(name))).toEqual([
      "Order",
    ]);
  });

  it("refuses to start when the response path is not selected", () => {
    const elsewhere = {
      ...listOrders,
      document: listOrders.document.replace("pageInfo { hasNextPage endCursor }", ""),
    };
    expect(() => buildOpenApiDocument(schema, { origin, routes: [elsewhere] })).toThrow(
      /REST route listOrders: the document selects nothing at orders.page_info.has_next_page/,
    );
  });
});
