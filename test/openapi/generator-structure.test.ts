// What a client generator (orval, @hey-api/openapi-ts, openapi-typescript)
// needs from the document to write a usable SDK: errors as one shared Problem
// schema, narrowed per operation to the codes it answers with, events typed
// per `type` with the record's own schema as `data.object`, a server URL
// generators call as it is, a `webhooks` section for the receiving side, and
// the API key applied to every operation.
import { describe, expect, it } from "vitest";
import { PROBLEMS } from "../../src/contract/problems.js";
import { API_PREFIX } from "../../src/contract/route.js";
import { WEBHOOK_EVENT_TYPES } from "../../src/domain/webhook-events.js";
import { buildOpenApiDocument } from "../../src/openapi/document.js";
import type { JsonSchema, Operation } from "../../src/openapi/types.js";
import { schema } from "../../src/schema/index.js";

const ORIGIN = "https://api.example.com";
const document = buildOpenApiDocument(schema, { origin: ORIGIN });
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
  it("answers every error of an operation with its problem: the one Problem, `code` narrowed to the operation's codes", () => {
    const misfits: string[] = [];
    for (const [label, { operationId, responses }] of operations()) {
      const name = `${operationId.charAt(0).toUpperCase()}${operationId.slice(1)}Problem`;
      const documented = new Set<string>();
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        expect(Object.keys(response.content ?? {}), `${label} ${status}`).toEqual([
          "application/problem+json",
        ]);
        const content = response.content?.["application/problem+json"];
        if (content?.schema.$ref !== `${COMPONENT}${name}`)
          misfits.push(`${label} ${status}: ${JSON.stringify(content?.schema)}`);
        for (const code of Object.keys(content?.examples ?? {})) documented.add(code);
      }
      const problem = component(`${COMPONENT}${name}`);
      expect(problem.allOf?.[0], label).toEqual({ $ref: `${COMPONENT}Problem` });
      const narrowed = problem.allOf?.[1];
      expect(narrowed?.required, label).toEqual(["code"]);
      // Exactly the codes its responses give, each under its own status.
      expect(new Set(narrowed?.properties?.code?.enum), label).toEqual(documented);
    }
    expect(misfits).toEqual([]);
    // One type for every problem: its `code` names each reason the service gives.
    expect(component(`${COMPONENT}Problem`).properties?.code?.enum).toEqual(Object.keys(PROBLEMS));
    // A create answers `already_exists`; a list does not.
    const createCodes = component(`${COMPONENT}CreateSupplierUserProblem`).allOf?.[1]?.properties?.code?.enum;
    expect(createCodes).toContain("already_exists");
    const listCodes = component(`${COMPONENT}ListOrdersProblem`).allOf?.[1]?.properties?.code?.enum;
    expect(listCodes).not.toContain("already_exists");
    expect(listCodes).not.toContain("not_found");
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
      // The whole record, or (over the size limit, docs/reference/webhooks.md "Event size") where to read it.
      const [whole, omitted] = (member.properties?.data?.oneOf ?? []) as JsonSchema[];
      const updated = type.endsWith(".updated");
      expect(whole?.required, type).toEqual(updated ? ["object", "previous_attributes"] : ["object"]);
      expect(Object.keys(whole?.properties ?? {}), type).toEqual(
        updated ? ["object", "previous_attributes"] : ["object"],
      );
      expect(omitted?.required, type).toEqual(["object_omitted"]);
      expect(omitted?.properties?.object_omitted?.required, type).toEqual([
        "reason",
        "size_bytes",
        "max_bytes",
        "id",
        "url",
      ]);
    }
  });

  it("gives each event's `data.object` the schema of the record as the REST API answers it", () => {
    const union = component(successSchema("getEvent").$ref);
    const objectOf = (type: string) =>
      (component(union.discriminator?.mapping?.[type]).properties?.data?.oneOf?.[0] as JsonSchema | undefined)
        ?.properties?.object;
    // docs/reference/webhooks.md, "Events": which answer each event's object is.
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

  it("has the public origin as its one server and every path whole, so a generator ignoring servers calls the right path", () => {
    expect(document.servers).toEqual([{ url: ORIGIN, description: expect.any(String) }]);
    const paths = Object.keys(document.paths);
    expect(paths.filter((path) => !path.startsWith(`${API_PREFIX}/`))).toEqual([]);
    expect(paths).toContain(`${API_PREFIX}/orders`);
  });

  it("describes each delivery the receiving side gets, one webhook per event type", () => {
    const union = component(successSchema("getEvent").$ref);
    const mapping = union.discriminator?.mapping ?? {};
    expect(Object.keys(document.webhooks ?? {}).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const [type, item] of Object.entries(document.webhooks ?? {})) {
      const post = (item as { post?: Operation }).post;
      expect(post?.requestBody?.content["application/json"]?.schema, type).toEqual({ $ref: mapping[type] });
      expect(
        post?.parameters.map((parameter) => ("name" in parameter ? parameter.name : parameter.$ref)),
        type,
      ).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
      // The service signs a delivery; it sends no API key.
      expect(post?.security, type).toEqual([]);
    }
  });

  it("applies the API key to every operation, as a header generators send", () => {
    expect(document.components.securitySchemes.ApiKey).toEqual(
      expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-KEY" }),
    );
    expect(document.security).toEqual([{ ApiKey: [] }]);
    // No operation of the API is answered without a key, so none overrides it (webhooks are sent, not called).
    expect(operations().filter(([, candidate]) => candidate.security !== undefined)).toEqual([]);
  });
});
