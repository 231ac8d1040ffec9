// What a client generator (orval, @hey-api/openapi-ts, openapi-typescript)
// needs from the document to write a usable SDK: errors as one shared Problem
// schema rather than a type per operation and status, events typed per `type`
// with the record's own schema as `data.object`, a base URL the integrator can
// set, and the API key applied to every operation.
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENT_TYPES } from "../../src/domain/webhook-events.js";
import { buildOpenApiDocument } from "../../src/rest/openapi/document.js";
import type { JsonSchema, Operation } from "../../src/rest/openapi/types.js";
import { schema } from "../../src/schema/index.js";

const document = buildOpenApiDocument(schema);
const COMPONENT = "#/components/schemas/";

function operations(): [string, Operation][] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]): [string, Operation] => [
      `${method.toUpperCase()} ${path}`,
      operation,
    ]),
  );
}

function operation(operationId: string): Operation {
  const found = operations().find(([, candidate]) => candidate.operationId === operationId)?.[1];
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
}

function component(ref: string | undefined): JsonSchema {
  const found = ref?.startsWith(COMPONENT)
    ? document.components.schemas[ref.slice(COMPONENT.length)]
    : undefined;
  if (!found) throw new Error(`${ref} names no component schema`);
  return found;
}

/** The JSON body schema of an operation's success response. */
function successSchema(operationId: string): JsonSchema {
  const [, response] =
    Object.entries(operation(operationId).responses).find(([status]) => Number(status) < 300) ?? [];
  const body = response?.content?.["application/json"]?.schema;
  if (!body) throw new Error(`${operationId} answers no JSON body`);
  return body;
}

describe("the OpenAPI document, as a client generator reads it", () => {
  it("answers every error of every operation with a $ref to the one Problem schema, never an inline schema", () => {
    const inline: string[] = [];
    for (const [label, { responses }] of operations()) {
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        expect(Object.keys(response.content ?? {}), `${label} ${status}`).toEqual([
          "application/problem+json",
        ]);
        const body = response.content?.["application/problem+json"]?.schema;
        if (!body || Object.keys(body).join() !== "$ref" || body.$ref !== `${COMPONENT}Problem`)
          inline.push(`${label} ${status}: ${JSON.stringify(body)}`);
      }
      if (JSON.stringify(responses).includes('"allOf"')) inline.push(`${label}: allOf in its responses`);
    }
    expect(inline).toEqual([]);
    // One type for every problem: its `code` names each reason the service gives.
    expect(component(`${COMPONENT}Problem`).properties?.code?.enum).toEqual(
      expect.arrayContaining([
        "validation_failed",
        "not_found",
        "already_exists",
        "rate_limited",
        "internal",
      ]),
    );
  });

  it("types events as a union on `type`, one member per event type the service sends", () => {
    const event = successSchema("getEvent");
    expect(successSchema("listEvents")).toEqual({ type: "array", items: event });
    const union = component(event.$ref);
    expect(union.discriminator?.propertyName).toBe("type");
    const mapping = union.discriminator?.mapping ?? {};
    expect(Object.keys(mapping).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    expect(union.oneOf).toEqual(Object.values(mapping).map(($ref) => ({ $ref })));
    for (const [type, ref] of Object.entries(mapping)) {
      const member = component(ref);
      expect(member.properties?.type, type).toMatchObject({ const: type });
      expect(member.required, type).toEqual(expect.arrayContaining(["id", "type", "created_at", "data"]));
      const data = member.properties?.data;
      const updated = type.endsWith(".updated");
      expect(data?.required, type).toEqual(updated ? ["object", "previous_attributes"] : ["object"]);
      expect(Object.keys(data?.properties ?? {}), type).toEqual(
        updated ? ["object", "previous_attributes"] : ["object"],
      );
    }
  });

  it("gives each event's `data.object` the schema of the record as the REST API answers it", () => {
    const union = component(successSchema("getEvent").$ref);
    const objectOf = (type: string) =>
      component(union.discriminator?.mapping?.[type]).properties?.data?.properties?.object;
    // docs/webhooks.md, "Events": which answer each event's object is.
    const answeredBy: Record<string, string> = {
      "order.created": "getOrder",
      "order.updated": "getOrder",
      "buyer_product_approval.created": "getBuyerProductApproval",
      "buyer_product_approval.updated": "getBuyerProductApproval",
      "supplier_user.created": "createSupplierUser",
      "tagging.created": "attachTags",
    };
    for (const [type, operationId] of Object.entries(answeredBy)) {
      expect(objectOf(type), type).toEqual(successSchema(operationId));
    }
    // A created buyer product: GET /buyer_products/{id} and the auto_match POST /buyer_products answered.
    const product = component(objectOf("buyer_product.created")?.$ref);
    const read = component(successSchema("getBuyerProduct").$ref);
    const autoMatch = component(successSchema("createBuyerProduct").$ref).properties?.auto_match?.$ref;
    expect(product.properties).toEqual({
      ...read.properties,
      // Null for products imported with their catalogue product.
      auto_match: expect.objectContaining({ anyOf: [{ $ref: autoMatch }, { type: "null" }] }),
    });
  });

  it("has a server URL with a base_url variable the integrator sets", () => {
    const [server, ...others] = document.servers ?? [];
    expect(others).toEqual([]);
    expect(server?.url).toBe("{base_url}/api/public/buyer/v1");
    expect(server?.variables?.base_url).toMatchObject({ default: "", description: expect.any(String) });
  });

  it("applies the API key to every operation, as a header generators send", () => {
    expect(document.components.securitySchemes.ApiKey).toEqual(
      expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-KEY" }),
    );
    expect(document.security).toEqual([{ ApiKey: [] }]);
    // No operation of the document is answered without a key, so none overrides it.
    expect(operations().filter(([, candidate]) => candidate.security !== undefined)).toEqual([]);
  });
});
