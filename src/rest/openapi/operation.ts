import { type GraphQLSchema, isNonNullType, isScalarType, Kind, type OperationDefinitionNode } from "graphql";
import { compileRoute } from "../compiled-route.js";
import type { RestRoute } from "../routes.js";
import { parameterRef } from "./headers.js";
import { leafSchema } from "./leaf-schema.js";
import { PROBLEMS, type ProblemCode, requestProblems } from "./problems.js";
import { inputObjectSchema, inputSchema } from "./request-schema.js";
import { pascalCase, responseSchema } from "./response-schema.js";
import { problemResponses, successResponse } from "./responses.js";
import type { RouteDoc } from "./route-docs.js";
import { type RouteInputs, routeInputs } from "./route-inputs.js";
import type { SchemaRegistry } from "./schema-registry.js";
import type { JsonSchema, Operation, Parameter, RequestBody } from "./types.js";

export interface OperationSources {
  schema: GraphQLSchema;
  route: RestRoute;
  doc: RouteDoc;
  registry: SchemaRegistry;
  problemRef: JsonSchema;
}

/** One operation of the document, from its route, its GraphQL operation and its docs. */
export function buildOperation({ schema, route, doc, registry, problemRef }: OperationSources): Operation {
  const compiled = compileRoute(schema, route);
  const operation = compiled.document.definitions.find(
    (definition): definition is OperationDefinitionNode => definition.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error(`OpenAPI: ${route.operationId} has no operation`);
  const inputs = routeInputs(schema, compiled);
  const context = { method: route.method, paginated: route.nextCursor !== undefined };

  const problems = new Map<ProblemCode, string>(
    requestProblems(route.method, route.path).map((code) => [code, PROBLEMS[code].when]),
  );
  for (const [code, when] of Object.entries(doc.problems ?? {}) as [ProblemCode, string][]) {
    problems.set(code, when);
  }

  const requestBody = bodyOf(route, doc, inputs, registry);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: doc.description,
    tags: [doc.tag],
    parameters: [
      ...pathParameters(route, doc, inputs),
      ...queryParameters(route, doc, inputs, registry),
      ...(route.method === "POST" ? [parameterRef("IdempotencyKey")] : []),
      parameterRef("RequestId"),
    ],
    ...(requestBody ? { requestBody } : {}),
    responses: {
      [String(route.successStatus)]: successResponse(
        route.successStatus,
        doc.success.description,
        responseSchema(schema, route, operation, registry),
        doc.success.example,
        context,
      ),
      ...problemResponses(problems, doc.problemExamples ?? {}, problemRef, context),
    },
  };
}

function pathParameters(route: RestRoute, doc: RouteDoc, inputs: RouteInputs): Parameter[] {
  for (const name of Object.keys(doc.pathParameters ?? {})) {
    if (!inputs.pathParameters.has(name))
      throw new Error(`OpenAPI: ${route.operationId} has no path parameter ${name}`);
  }
  return [...inputs.pathParameters].map(([name, location]) => {
    const parameterDoc = doc.pathParameters?.[name];
    if (!parameterDoc) throw new Error(`OpenAPI: route-docs do not describe ${route.operationId}'s ${name}`);
    const type = isNonNullType(location.type) ? location.type.ofType : location.type;
    if (!isScalarType(type) || type.name !== "UUID") {
      throw new Error(`OpenAPI: ${route.operationId}'s path parameter ${name} is not a UUID`);
    }
    return {
      name,
      in: "path",
      required: true,
      description: [location.description, parameterDoc.description].filter(Boolean).join(" "),
      schema: leafSchema(type, "input"),
      example: parameterDoc.example,
    };
  });
}

function queryParameters(
  route: RestRoute,
  doc: RouteDoc,
  inputs: RouteInputs,
  registry: SchemaRegistry,
): Parameter[] {
  const documented = new Set(
    (doc.query ?? []).flatMap((parameter) => [parameter.name, ...(parameter.aliases ?? [])]),
  );
  const undocumented = [...inputs.queryNamesRead].filter((name) => !documented.has(name));
  if (undocumented.length > 0) {
    throw new Error(
      `OpenAPI: ${route.operationId} reads query parameters route-docs do not describe: ${undocumented.join(", ")}`,
    );
  }
  return (doc.query ?? []).map((parameter) => {
    const values = Array.isArray(parameter.example) ? parameter.example : [String(parameter.example)];
    const location = inputs.locateQueryParameter(parameter.name, values);
    const schema = { ...inputSchema(location.type, { registry, limitStrings: false }), ...parameter.schema };
    const isArray = schema.type === "array";
    if (isArray !== Array.isArray(parameter.example)) {
      throw new Error(`OpenAPI: ${route.operationId}'s ${parameter.name} example does not fit its type`);
    }
    return {
      name: parameter.name,
      in: "query",
      required: false,
      description: [location.description, parameter.description].filter(Boolean).join(" "),
      schema,
      ...(isArray ? { style: "form", explode: true } : {}),
      example: parameter.example,
    };
  });
}

function bodyOf(
  route: RestRoute,
  doc: RouteDoc,
  inputs: RouteInputs,
  registry: SchemaRegistry,
): RequestBody | undefined {
  if (!inputs.body) {
    if (doc.requestExample !== undefined || doc.bodyFields) {
      throw new Error(`OpenAPI: route-docs give ${route.operationId} a body it does not read`);
    }
    return undefined;
  }
  if (doc.requestExample === undefined)
    throw new Error(`OpenAPI: route-docs lack ${route.operationId}'s request example`);
  const object = inputObjectSchema(
    inputs.body.type,
    { registry, limitStrings: true },
    inputs.body.filledFromPath,
    doc.bodyFields ?? {},
  );
  return {
    required: (object.required ?? []).length > 0,
    ...(inputs.body.description ? { description: inputs.body.description } : {}),
    content: {
      "application/json": {
        schema: registry.ref(`${pascalCase(route.operationId)}Request`, object),
        examples: { default: { value: doc.requestExample } },
      },
    },
  };
}
