import { type GraphQLSchema, getNamedType, isInputObjectType } from "graphql";
import type { CompiledRoute } from "../compiled-route.js";
import { parameterRef } from "./headers.js";
import { PROBLEMS, requestProblems } from "./problems.js";
import { inputObjectSchema, inputSchema } from "./request-schema.js";
import { responseSchema } from "./response-schema.js";
import { problemResponses, successResponse } from "./responses.js";
import type { SchemaRegistry } from "./schema-registry.js";
import type { JsonSchema, Operation, Parameter, ProblemCode, RequestBody } from "./types.js";

/** One operation of the document, from its route table entry and the GraphQL types it feeds and reads. */
export function buildOperation(
  schema: GraphQLSchema,
  compiled: CompiledRoute,
  registry: SchemaRegistry,
  problemRef: JsonSchema,
): Operation {
  const { route } = compiled;
  const context = { method: route.method, paginated: route.response.kind === "list" };
  const problems = new Map<ProblemCode, string>(
    requestProblems(route.method, route.path).map((code) => [code, PROBLEMS[code].when]),
  );
  for (const [code, when] of Object.entries(route.problems ?? {}) as [ProblemCode, string][]) {
    problems.set(code, when);
  }
  const requestBody = bodyOf(compiled, registry);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    tags: [route.tag],
    parameters: [
      ...pathParameters(compiled),
      ...queryParameters(compiled, registry),
      ...(route.method === "POST" ? [parameterRef("IdempotencyKey")] : []),
      parameterRef("RequestId"),
    ],
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [String(route.success.status)]: successResponse(
        route.success,
        responseSchema(schema, compiled, registry),
        context,
      ),
      ...problemResponses(problems, route.problemExamples ?? {}, problemRef, context),
    },
  };
}

function pathParameters({ route, pathTargets }: CompiledRoute): Parameter[] {
  return Object.entries(route.pathParameters ?? {}).map(([name, parameter]) => ({
    name,
    in: "path",
    required: true,
    description: [pathTargets.get(name)?.description, parameter.description].filter(Boolean).join(" "),
    schema: { type: "string", format: "uuid" },
    example: parameter.example,
  }));
}

function queryParameters({ route, queryTargets }: CompiledRoute, registry: SchemaRegistry): Parameter[] {
  return (route.query ?? []).map((parameter, index) => {
    const target = queryTargets[index];
    if (!target) throw new Error(`OpenAPI: ${route.operationId}'s ${parameter.name} feeds nothing`);
    const schema = { ...inputSchema(target.type, { registry, limitStrings: false }), ...parameter.schema };
    const isArray = schema.type === "array";
    if (isArray !== (parameter.form === "list") || isArray !== Array.isArray(parameter.example)) {
      throw new Error(
        `OpenAPI: ${route.operationId}'s ${parameter.name} form or example does not fit its type`,
      );
    }
    return {
      name: isArray ? `${parameter.name}[]` : parameter.name,
      in: "query",
      required: false,
      description: [target.description, parameter.description].filter(Boolean).join(" "),
      schema,
      ...(isArray ? { style: "form", explode: true } : {}),
      example: parameter.example,
    };
  });
}

function bodyOf(
  { route, bodyTarget, pathTargets }: CompiledRoute,
  registry: SchemaRegistry,
): RequestBody | undefined {
  if (!route.body || !bodyTarget) return undefined;
  const type = getNamedType(bodyTarget.type);
  if (!isInputObjectType(type))
    throw new Error(`OpenAPI: ${route.operationId}'s body is not an input object`);
  // Body fields a path parameter fills are not the client's to send.
  const prefix = bodyTarget.path;
  const filledFromPath = new Set(
    [...pathTargets.values()]
      .filter(({ path }) => path.length === prefix.length + 1 && prefix.every((key, i) => path[i] === key))
      .map(({ path }) => path.at(-1) ?? ""),
  );
  const object = inputObjectSchema(
    type,
    { registry, limitStrings: true },
    filledFromPath,
    route.body.fields ?? {},
  );
  const name = `${route.operationId.charAt(0).toUpperCase()}${route.operationId.slice(1)}Request`;
  return {
    required: (object.required ?? []).length > 0,
    ...(bodyTarget.description ? { description: bodyTarget.description } : {}),
    content: {
      "application/json": {
        schema: registry.ref(name, object),
        examples: { default: { value: route.body.example } },
      },
    },
  };
}
