// Every REST response a test sees is checked against the OpenAPI document the
// app serves: status listed for the operation, media type, required headers
// and body schema. A response the document does not describe fails the test.
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { buildOpenApiDocument, OPENAPI_PATH } from "../../src/openapi/document.js";
import type {
  Header,
  JsonSchema,
  MediaType,
  OpenApiDocument,
  Operation,
  Reference,
} from "../../src/openapi/types.js";
import { schema } from "../../src/schema/index.js";

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

export class ContractViolation extends Error {
  override name = "ContractViolation";
}

export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  text: string;
}

const BASE = "https://contract.test/openapi.json";
const COMPONENT_SCHEMA = "#/components/schemas/";

/**
 * The document as ajv checks it: references point into one registered schema,
 * and objects admit no undocumented members. The published document leaves
 * objects open, because v1 may add response fields; the tests hold the service
 * to exactly what the document lists today.
 */
function forValidation<T>(value: T, partOfAllOf = false): T {
  if (Array.isArray(value)) return value.map((item) => forValidation(item, partOfAllOf)) as T;
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    // OpenAPI's own keyword, for generators: `oneOf` with each member's `const` already checks what it says.
    if (key === "discriminator") continue;
    copy[key] =
      key === "$ref" && typeof child === "string" && child.startsWith(COMPONENT_SCHEMA)
        ? `${BASE}#/$defs/${child.slice(COMPONENT_SCHEMA.length)}`
        : forValidation(child, key === "allOf");
  }
  // A member of allOf describes only part of an object, so only whole objects are closed.
  const schemaType = copy.type;
  const isObject = schemaType === "object" || (Array.isArray(schemaType) && schemaType.includes("object"));
  if (isObject && !partOfAllOf && copy.properties !== undefined && copy.additionalProperties === undefined) {
    copy.additionalProperties = false;
  }
  return copy as T;
}

interface Match {
  template: string;
  operation: Operation | undefined;
  allowed: string[];
}

class ContractChecker {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true });
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly paths: { template: string; pattern: RegExp }[];

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: BASE, $defs: forValidation(document.components.schemas) });
    this.paths = Object.keys(document.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`),
    }));
  }

  check(observed: ObservedResponse): void {
    const url = new URL(observed.url);
    if (!url.pathname.startsWith("/api/") || url.pathname === OPENAPI_PATH) return;
    const label = `${observed.method} ${url.pathname}`;
    const match = this.match(observed.method, url.pathname);
    if (match?.operation) {
      this.checkOperation(label, match.template, match.operation, observed);
    } else {
      this.checkOutsideOperations(label, match, observed);
    }
  }

  private match(method: string, pathname: string): Match | null {
    const path = this.paths.find((candidate) => candidate.pattern.test(pathname));
    if (!path) return null;
    const item = this.document.paths[path.template] ?? {};
    return {
      template: path.template,
      operation: item[method.toLowerCase() as keyof typeof item],
      // The server answers HEAD wherever the document has GET.
      allowed: Object.keys(item).flatMap((key) => (key === "get" ? ["GET", "HEAD"] : [key.toUpperCase()])),
    };
  }

  private checkOperation(label: string, template: string, operation: Operation, observed: ObservedResponse) {
    const status = String(observed.status);
    const response = operation.responses[status];
    if (!response) {
      throw new ContractViolation(
        `${label} (${operation.operationId}) answered ${status}, which the OpenAPI document does not list for it (listed: ${Object.keys(operation.responses).join(", ")}).\nBody: ${observed.text.slice(0, 500)}`,
      );
    }
    for (const [name, header] of Object.entries(response.headers ?? {})) {
      this.checkHeader(label, status, name, this.resolveHeader(header), observed.headers.get(name));
    }
    const [mediaType, content] = Object.entries(response.content ?? {})[0] ?? [];
    if (!mediaType || !content) return;
    const pointer = `#/paths/${escapePointer(template)}/${operation.operationId}/${status}`;
    this.checkBody(label, status, mediaType, content.schema, pointer, observed);
    if (mediaType === "application/problem+json") this.checkProblem(label, status, content, observed);
  }

  /**
   * Every problem response has the one Problem schema: its `status` is the
   * response's, and the codes it documents are the names of its examples.
   */
  private checkProblem(label: string, status: string, content: MediaType, observed: ObservedResponse) {
    const { code, status: written } = JSON.parse(observed.text) as { code?: unknown; status?: unknown };
    if (written !== observed.status) {
      throw new ContractViolation(
        `${label} ${status} wrote the status ${JSON.stringify(written)} in its body.`,
      );
    }
    const documented = Object.keys(content.examples);
    if (typeof code !== "string" || !documented.includes(code)) {
      throw new ContractViolation(
        `${label} ${status} answered the code ${JSON.stringify(code)}, which the OpenAPI document does not list for it (listed: ${documented.join(", ")}).`,
      );
    }
  }

  /** Unknown paths and methods answer before any operation: a 404 or 405 problem (or 429 when over the limit). */
  private checkOutsideOperations(label: string, match: Match | null, observed: ObservedResponse) {
    const expected = match ? 405 : 404;
    if (observed.status !== expected && observed.status !== 429) {
      throw new ContractViolation(
        `${label} is no operation of the OpenAPI document, so it must answer ${expected}, but answered ${observed.status}.`,
      );
    }
    if (observed.status === 405) {
      const allow = observed.headers.get("allow");
      if (allow !== (match?.allowed ?? []).join(", ")) {
        throw new ContractViolation(
          `${label} answered 405 with Allow: ${allow}; the document has ${match?.allowed}`,
        );
      }
    }
    const requestId = this.resolveHeader({ $ref: "#/components/headers/X-Request-Id" });
    this.checkHeader(
      label,
      String(observed.status),
      "X-Request-Id",
      requestId,
      observed.headers.get("x-request-id"),
    );
    const schema: JsonSchema = {
      allOf: [
        { $ref: `${COMPONENT_SCHEMA}Problem` },
        { type: "object", properties: { status: { const: observed.status } } },
      ],
    };
    this.checkBody(
      label,
      String(observed.status),
      "application/problem+json",
      schema,
      `#/outside/${observed.status}`,
      observed,
    );
  }

  private resolveHeader(header: Header | Reference): Header {
    if (!("$ref" in header)) return header;
    const name = header.$ref.replace("#/components/headers/", "");
    const resolved = (this.document.components.headers as Record<string, Header>)[name];
    if (!resolved) throw new ContractViolation(`The document references a missing header ${header.$ref}`);
    return resolved;
  }

  private checkHeader(label: string, status: string, name: string, header: Header, value: string | null) {
    if (value === null) {
      if (header.required)
        throw new ContractViolation(`${label} ${status} lacks the required header ${name}.`);
      return;
    }
    const isInteger = header.schema.type === "integer";
    if (isInteger && !/^\d+$/.test(value)) {
      throw new ContractViolation(`${label} ${status}: header ${name} is "${value}", not a whole number.`);
    }
    const validate = this.validator(`#/headers/${name}`, header.schema);
    if (!validate(isInteger ? Number(value) : value)) {
      throw new ContractViolation(
        `${label} ${status}: header ${name} "${value}" ${describeErrors(validate.errors, value)}`,
      );
    }
  }

  private checkBody(
    label: string,
    status: string,
    mediaType: string,
    bodySchema: JsonSchema,
    key: string,
    observed: ObservedResponse,
  ) {
    const actualType = observed.headers.get("content-type")?.split(";")[0]?.trim();
    if (actualType !== mediaType) {
      throw new ContractViolation(
        `${label} ${status} is ${actualType ?? "without a Content-Type"}; the document says ${mediaType}.`,
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(observed.text);
    } catch {
      throw new ContractViolation(`${label} ${status} body is not JSON: ${observed.text.slice(0, 200)}`);
    }
    const validate = this.validator(key, bodySchema);
    if (!validate(body)) {
      throw new ContractViolation(
        `${label} ${status} body does not match the OpenAPI document:\n${describeErrors(validate.errors, body)}`,
      );
    }
  }

  /** Why `value` does not fit `schemaObject` (a schema of the document), or null when it does. */
  problemsWith(schemaObject: JsonSchema, value: unknown): string | null {
    const validate = this.ajv.compile(forValidation(schemaObject));
    return validate(value) ? null : describeErrors(validate.errors, value);
  }

  private validator(key: string, schemaObject: JsonSchema): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(forValidation(schemaObject));
      this.validators.set(key, validate);
    }
    return validate;
  }
}

function escapePointer(segment: string): string {
  return segment.replaceAll("~", "~0").replaceAll("/", "~1");
}

function describeErrors(errors: ErrorObject[] | null | undefined, data: unknown): string {
  return (errors ?? [])
    .map((error) => {
      const at = error.instancePath || "(root)";
      const value = error.instancePath
        .split("/")
        .slice(1)
        .reduce<unknown>((current, part) => (current as Record<string, unknown> | undefined)?.[part], data);
      const extra =
        error.keyword === "additionalProperties" ? ` "${String(error.params.additionalProperty)}"` : "";
      return `  ${at} ${error.message}${extra} (value: ${JSON.stringify(value)?.slice(0, 120)})`;
    })
    .join("\n");
}

let checker: ContractChecker | undefined;

/** One checker per test file, over the document the app would serve. */
export function contract(): ContractChecker {
  checker ??= new ContractChecker(buildOpenApiDocument(schema, { origin: "http://localhost" }));
  return checker;
}

/** Throws a ContractViolation naming what differs when `observed` is not what the document describes. */
export function assertMatchesContract(observed: ObservedResponse): void {
  contract().check(observed);
}

/** A fetch for clients (openapi-fetch) that checks every response like callApi does. */
export function contractFetch(fetch: (request: Request) => Promise<Response>) {
  return async (request: Request): Promise<Response> => {
    const response = await fetch(request);
    assertMatchesContract({
      method: request.method,
      url: request.url,
      status: response.status,
      headers: response.headers,
      text: await response.clone().text(),
    });
    return response;
  };
}
