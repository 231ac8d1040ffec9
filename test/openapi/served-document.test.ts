// The OpenAPI document against the app that serves it: the reference page and
// the document it renders; every constraint the document states, held on the
// server both ways; and an integrator's client typed from it.

import { randomUUID } from "node:crypto";
import { runInNewContext } from "node:vm";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PREFIX, type RestRoute } from "../../src/contract/route.js";
import { routes } from "../../src/contract/routes.js";
import { withCodeSamples } from "../../src/http/code-samples.js";
import { buildOpenApiDocument, OPENAPI_PATH } from "../../src/openapi/document.js";
import type { JsonSchema, OpenApiDocument, Operation, Parameter } from "../../src/openapi/types.js";
import { schema } from "../../src/schema/index.js";
import type { paths } from "../generated/api-types.js";
import type { ProblemBody } from "../rest/helpers.js";
import { PUBLIC_WEBHOOK_URL, pathOf, type RouteFixtures, seedRouteFixtures } from "../rest/route-fixtures.js";
import { contractFetch } from "../support/contract.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { callApi, createTestApp, PUBLIC_BASE_URL, type TestApp } from "../support/test-app.js";

// One app for the whole file: each part seeds buyers of its own.
let harness: TestApp;

beforeAll(async () => {
  harness = await createTestApp();
});
afterAll(async () => {
  await harness?.close();
});

// GET /docs: the Redoc reference, served from local packages only; and the
// OpenAPI document it renders, served without a key.
/** The bundle's URL carries a hash of its bytes. */
const BUNDLE = /^\/docs\/redoc\.standalone\.[0-9a-f]{12}\.js$/;

describe("the API reference page", () => {
  const get = (path: string, init: RequestInit = {}) =>
    harness.app.fetch(new Request(`http://localhost${path}`, init));

  it("serves /docs without an API key, loading scripts only from this server", async () => {
    const response = await get("/docs");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect([...html.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1])).toEqual([
      expect.stringMatching(BUNDLE),
      "/docs/init.js",
    ]);
    expect(html).not.toMatch(/https?:\/\//);
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
  });

  it("serves Redoc from node_modules without the CDN logo it would fetch, at a URL naming its bytes", async () => {
    const html = await (await get("/docs")).text();
    const bundlePath = /<script src="([^"]+)"/.exec(html)?.[1] ?? "";
    const response = await get(bundlePath);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await get("/docs/redoc.standalone.000000000000.js")).status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/^text\/javascript/);
    const bundle = await response.text();
    expect(bundle.length).toBeGreaterThan(500_000);
    expect(bundle).not.toContain("cdn.redoc.ly");
  });

  it("renders the document at the OpenAPI URL, whose server is the public origin", async () => {
    const script = await (await get("/docs/init.js")).text();
    // The page's script run as the browser would, with this server behind its fetch and Redoc stubbed.
    const requested: string[] = [];
    const rendered = new Promise<OpenApiDocument>((resolve) => {
      runInNewContext(script, {
        fetch: (path: string) => {
          requested.push(path);
          return get(path);
        },
        Redoc: { init: (spec: OpenApiDocument) => resolve(spec) },
        document: { getElementById: () => null },
      });
    });
    const spec = await rendered;
    expect(requested).toEqual([OPENAPI_PATH]);
    expect(spec.servers?.map((server) => server.url)).toEqual([PUBLIC_BASE_URL]);
    expect(Object.keys(spec.paths)).toContain(`${API_PREFIX}/orders`);
  });

  it("answers other methods with 405 and Allow", async () => {
    const response = await get("/docs", { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
    expect(await response.json()).toMatchObject({ code: "method_not_allowed" });
  });

  describe("the OpenAPI document it renders", () => {
    it("is served at /api/public/buyer/v1/openapi.json without an API key, as JSON", async () => {
      const response = await get(OPENAPI_PATH);
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.headers.get("x-request-id")).toBeTruthy();
      const served = (await response.json()) as OpenApiDocument;
      expect(served.openapi).toBe("3.1.0");
      expect(served.info.version).toBe("v1");
    });

    it("is the document generated from the route table and the GraphQL schema, with request samples", async () => {
      const served = (await (await get(OPENAPI_PATH)).json()) as OpenApiDocument;
      expect(served).toEqual(
        withCodeSamples(buildOpenApiDocument(schema, { origin: PUBLIC_BASE_URL }), OPENAPI_PATH),
      );
    });
  });
});

type Json = unknown;

/** One request derived from one constraint, and what the document says of it. */
interface Case {
  /** The constraint, for the report: `body resource_values[0].provider maxLength 255 + 1`. */
  name: string;
  /** The field the answer names when it refuses (REST spelling), or the path parameter. */
  field: string;
  expect: "accepted" | "refused" | "not_found" | "unknown_parameter";
  /** The code a refusal must carry, when the document implies one. */
  code?: string;
  query?: [string, string][];
  body?: (valid: Record<string, Json>) => Record<string, Json>;
  pathValue?: string;
  headers?: Record<string, string>;
  /** When this case disagrees, these are tried instead (each enum value alone, after all at once). */
  otherwise?: Case[];
}

/** A value the format does not admit, whatever else the field allows. */
const INVALID_FORMAT: Record<string, string> = {
  uuid: "not-a-uuid",
  date: "2025-13-45",
  "date-time": "yesterday at noon",
  email: "not-an-email",
  uri: "not a url",
};

/** A text each pattern of the document refuses. */
const NOT_MATCHING: Record<string, string> = { "\\S": "   " };

/** Values past what a 32-bit integer holds, which a document without bounds admits. */
const LARGE_INTEGERS = [2 ** 31, Number.MAX_SAFE_INTEGER];

/**
 * Query parameters no schema can bound: a cursor is valid only when the
 * server issued it.
 */
const OPAQUE_PARAMETERS = new Set(["cursor"]);

/** Whether a schema (already resolved) admits null. */
function admitsNull(schema: JsonSchema, resolve: (schema: JsonSchema) => JsonSchema): boolean {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("null") || schema.enum?.includes(null)) return true;
  return (schema.anyOf ?? []).some((branch) => admitsNull(resolve(branch), resolve));
}

/** A string `length` code points long, built on `base` so that it keeps its format. */
function stringOfLength(base: string, length: number, format: string | undefined): string {
  const chars = [...base];
  if (chars.length >= length) return chars.slice(0, length).join("");
  const padding = "x".repeat(length - chars.length);
  // An email keeps its domain; a URL or anything else grows at its end.
  return format === "email" ? padding + base : base + padding;
}

function sampleString(format: string | undefined): string {
  if (format === "email") return "someone@example.com";
  if (format === "uri") return PUBLIC_WEBHOOK_URL;
  return "x";
}

/** `resource_values[0].provider` from its segments. */
function fieldName(path: (string | number)[]): string {
  return path.reduce<string>(
    (name, segment) =>
      typeof segment === "number" ? `${name}[${segment}]` : name === "" ? segment : `${name}.${segment}`,
    "",
  );
}

function setAt(value: Record<string, Json>, path: (string | number)[], leaf: Json | undefined) {
  const copy = structuredClone(value);
  let target: Record<string | number, Json> = copy;
  for (const segment of path.slice(0, -1)) target = target[segment] as Record<string | number, Json>;
  const last = path.at(-1) ?? "";
  if (leaf === undefined) delete target[last];
  else target[last] = leaf;
  return copy;
}

function getAt(value: Json, path: (string | number)[]): Json {
  let current = value;
  for (const segment of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string | number, Json>)[segment];
  }
  return current;
}

class CaseBuilder {
  readonly cases: Case[] = [];
  /** Constraints the builder could not turn into requests; the test fails on them. */
  readonly untestable: string[] = [];

  constructor(private readonly document: OpenApiDocument) {}

  /** A schema with its `$ref` (and a lone nullable `anyOf` branch) replaced by what it names. */
  resolve(schema: JsonSchema): JsonSchema {
    if (schema.$ref) {
      const name = schema.$ref.replace("#/components/schemas/", "");
      const { $ref: _ref, ...siblings } = schema;
      return { ...this.resolve(this.document.components.schemas[name] ?? {}), ...siblings };
    }
    return schema;
  }

  /** The branches a value may take, `null` left out. */
  branches(schema: JsonSchema): JsonSchema[] {
    const resolved = this.resolve(schema);
    if (!resolved.anyOf) return [resolved];
    return resolved.anyOf.map((branch) => this.resolve(branch)).filter((branch) => branch.type !== "null");
  }

  /** Cases for one value in the body at `path`, whose valid form is `sample`. */
  bodyValue(schema: JsonSchema, path: (string | number)[], sample: Json): void {
    const field = fieldName(path);
    const at = (name: string, leaf: Json | undefined, expect: Case["expect"], code?: string) =>
      this.cases.push({
        name: `body ${field} ${name}`,
        field,
        expect,
        ...(code ? { code } : {}),
        body: (valid) => setAt(valid, path, leaf),
      });
    const branches = this.branches(schema);
    const only = branches.length === 1 ? branches[0] : undefined;
    // Null: admitted only where the document says so, refused with 422 elsewhere.
    if (path.length > 0) {
      const nullable = admitsNull(this.resolve(schema), (branch) => this.resolve(branch));
      at("null", null, nullable ? "accepted" : "refused");
    }
    const formats = branches.map((branch) => branch.format).filter((format) => format !== undefined);
    // A value no branch admits: for ids that are a UUID or a global ID, text that is neither.
    if (formats.length > 0 && branches.every((branch) => branch.format || branch.pattern)) {
      const invalid = formats.length === branches.length ? INVALID_FORMAT[formats[0] ?? ""] : "not an id!";
      if (invalid === undefined) this.untestable.push(`${field}: format ${formats.join("/")}`);
      else at(`format ${formats.join(" or ")}`, invalid, "refused", "invalid");
    }
    if (!only) return;
    const type = Array.isArray(only.type) ? only.type.find((name) => name !== "null") : only.type;
    if (only.enum) {
      for (const value of only.enum) if (value !== null) at(`enum ${String(value)}`, value, "accepted");
    }
    if (type === "string" && !only.enum) {
      const base = typeof sample === "string" ? sample : sampleString(only.format);
      if (only.maxLength !== undefined) {
        at(`maxLength ${only.maxLength}`, stringOfLength(base, only.maxLength, only.format), "accepted");
        at(
          `maxLength ${only.maxLength} + 1`,
          stringOfLength(base, only.maxLength + 1, only.format),
          "refused",
          "too_long",
        );
      }
      if (only.pattern !== undefined) {
        const refused = NOT_MATCHING[only.pattern];
        if (refused === undefined) this.untestable.push(`${field}: pattern ${only.pattern}`);
        else at(`pattern ${only.pattern}`, refused, "refused");
      }
      // Probes: texts the document admits when it states no lower bound and no pattern.
      if (only.format === undefined && only.pattern === undefined && (only.minLength ?? 0) === 0) {
        at("probe: empty text", "", "accepted");
        at("probe: blank text", "   ", "accepted");
      }
      if (only.minLength !== undefined && only.minLength > 0) {
        at(`minLength ${only.minLength}`, stringOfLength(base, only.minLength, only.format), "accepted");
        at(
          `minLength ${only.minLength} - 1`,
          stringOfLength(base, only.minLength - 1, only.format),
          "refused",
        );
      }
    }
    if (type === "integer" || type === "number") {
      if (only.minimum !== undefined) {
        at(`minimum ${only.minimum}`, only.minimum, "accepted");
        at(`minimum ${only.minimum} - 1`, only.minimum - 1, "refused", "out_of_range");
      }
      if (only.maximum !== undefined) {
        at(`maximum ${only.maximum}`, only.maximum, "accepted");
        at(`maximum ${only.maximum} + 1`, only.maximum + 1, "refused", "out_of_range");
      } else if (type === "integer") {
        for (const large of LARGE_INTEGERS) at(`probe: no maximum, ${large}`, large, "accepted");
      }
      if (only.minimum === undefined && type === "integer")
        for (const large of LARGE_INTEGERS) at(`probe: no minimum, ${-large}`, -large, "accepted");
    }
    if (type === "array" && only.items) {
      const items = Array.isArray(sample) ? sample : [];
      const item = this.resolve(only.items);
      if (only.maxItems !== undefined) {
        const [first] = items;
        if (first === undefined) this.untestable.push(`${field}: maxItems without an item to repeat`);
        else at(`maxItems ${only.maxItems} + 1`, Array(only.maxItems + 1).fill(first), "refused");
      }
      if (only.minItems !== undefined && only.minItems > 0)
        at(`minItems ${only.minItems} - 1`, items.slice(0, only.minItems - 1), "refused");
      if (item.enum) {
        // Every value at once, or each alone where values exclude one another ("*" stands alone).
        const values = item.enum.filter((value) => value !== null);
        at("items enum, every value", values, "accepted");
        const together = this.cases.pop();
        if (together) {
          for (const value of values) at(`items enum ${String(value)}`, [value], "accepted");
          together.otherwise = this.cases.splice(this.cases.length - values.length);
          this.cases.push(together);
        }
      } else if (items.length > 0) {
        this.bodyValue(only.items, [...path, 0], items[0]);
      } else if (this.hasConstraints(item)) {
        this.untestable.push(`${field}: item constraints without an item in the valid body`);
      }
    }
    if (type === "object") this.bodyObject(only, path, sample);
  }

  bodyObject(schema: JsonSchema, path: (string | number)[], sample: Json): void {
    const object = this.resolve(schema);
    for (const name of object.required ?? []) {
      const field = fieldName([...path, name]);
      this.cases.push({
        name: `body ${field} required`,
        field,
        expect: "refused",
        code: "required",
        body: (valid) => setAt(valid, [...path, name], undefined),
      });
    }
    for (const [name, property] of Object.entries(object.properties ?? {})) {
      const value = getAt(sample, [name]);
      this.bodyValue(property, [...path, name], value);
    }
  }

  hasConstraints(schema: JsonSchema): boolean {
    return (
      JSON.stringify(this.resolve(schema)).match(/"(maxLength|minimum|maximum|enum|format|required)"/) !==
      null
    );
  }

  parameter(parameter: Parameter): void {
    const schema = this.resolve(parameter.schema);
    const field = parameter.name.replace(/\[\]$/, "");
    const name = `${parameter.in} ${parameter.name}`;
    if (parameter.in === "path") {
      this.cases.push({ name: `${name} not an id`, field, expect: "not_found", pathValue: "not an id!" });
      return;
    }
    const send = (value: string): Pick<Case, "query" | "headers"> =>
      parameter.in === "query"
        ? { query: [[parameter.name, value]] }
        : { headers: { [parameter.name]: value } };
    const at = (label: string, value: string, expect: Case["expect"], code?: string) =>
      this.cases.push({ name: `${name} ${label}`, field, expect, ...(code ? { code } : {}), ...send(value) });
    const leaf = schema.type === "array" && schema.items ? this.resolve(schema.items) : schema;
    if (leaf.enum) for (const value of leaf.enum) at(`enum ${String(value)}`, String(value), "accepted");
    // Probe: free text, where the document states no enum, format, pattern or bound.
    const bounded = ["enum", "format", "pattern", "minimum", "maximum", "anyOf", "$ref"].some(
      (keyword) => keyword in leaf,
    );
    if (parameter.in === "query" && leaf.type === "string" && !bounded && !OPAQUE_PARAMETERS.has(field))
      at("probe: free text", "free text at all", "accepted");
    const branches = this.branches(leaf);
    const formats = branches.map((branch) => branch.format).filter((format) => format !== undefined);
    if (formats.length > 0) {
      const invalid = formats.length === branches.length ? INVALID_FORMAT[formats[0] ?? ""] : "not an id!";
      if (invalid === undefined) this.untestable.push(`${name}: format ${formats.join("/")}`);
      else at(`format ${formats.join(" or ")}`, invalid, "refused", "invalid");
    }
    if (leaf.minimum !== undefined) {
      at(`minimum ${leaf.minimum}`, String(leaf.minimum), "accepted");
      at(`minimum ${leaf.minimum} - 1`, String(leaf.minimum - 1), "refused", "out_of_range");
    }
    if (leaf.maximum !== undefined) {
      at(`maximum ${leaf.maximum}`, String(leaf.maximum), "accepted");
      at(`maximum ${leaf.maximum} + 1`, String(leaf.maximum + 1), "refused", "out_of_range");
    }
    // Header values are unique per request: an Idempotency-Key is kept.
    const unique = () => randomUUID();
    if (leaf.maxLength !== undefined) {
      at(`maxLength ${leaf.maxLength}`, stringOfLength(unique(), leaf.maxLength, undefined), "accepted");
      at(
        `maxLength ${leaf.maxLength} + 1`,
        stringOfLength(unique(), leaf.maxLength + 1, undefined),
        "refused",
      );
    }
  }
}

function casesFor(document: OpenApiDocument, operation: Operation, validBody: Json): CaseBuilder {
  const builder = new CaseBuilder(document);
  for (const entry of operation.parameters) {
    const parameter =
      "$ref" in entry
        ? document.components.parameters[entry.$ref.replace("#/components/parameters/", "")]
        : entry;
    if (parameter) builder.parameter(parameter);
  }
  const body = operation.requestBody?.content["application/json"]?.schema;
  if (body) builder.bodyObject(body, [], validBody);
  // Probe: a parameter no operation takes.
  const documented = Object.keys(
    operation.responses["400"]?.content?.["application/problem+json"]?.examples ?? {},
  );
  builder.cases.push({
    name: "query not_a_parameter",
    field: "not_a_parameter",
    expect: documented.includes("unknown_parameter") ? "unknown_parameter" : "accepted",
    query: [["not_a_parameter", "1"]],
  });
  return builder;
}

describe("every constraint of the OpenAPI document holds on the server", { timeout: 120_000 }, () => {
  let fixtures: RouteFixtures;
  let document: OpenApiDocument;

  beforeAll(async () => {
    fixtures = await seedRouteFixtures(harness);
    document = (await (await harness.app.fetch(`http://localhost${OPENAPI_PATH}`)).json()) as OpenApiDocument;
  });

  /** What went wrong with one case, or null when the server answered as the document says. */
  async function disagreement(route: RestRoute, one: Case): Promise<string | null> {
    const path = await pathOf(route, async (name) =>
      name === one.field && one.pathValue !== undefined
        ? one.pathValue
        : fixtures.pathRecord(route, name).id(),
    );
    const query = new URLSearchParams(one.query ?? []).toString();
    const valid = fixtures.validBody(route);
    const body = valid && one.body ? one.body(valid) : valid;
    let response: Awaited<ReturnType<typeof callApi>>;
    try {
      response = await callApi(harness.app, route.method, `${path}${query ? `?${query}` : ""}`, {
        key: fixtures.buyer.apiKey,
        ...(body === undefined ? {} : { body }),
        ...(one.headers ? { headers: one.headers } : {}),
      });
    } catch (error) {
      return `${one.name}: ${String(error)}`;
    }
    const problem = response.body as ProblemBody | null;
    const names = (problem?.errors ?? []).filter(
      (error) =>
        error.field === one.field ||
        error.field.startsWith(`${one.field}[`) ||
        error.field.startsWith(`${one.field}.`),
    );
    const answer = `${response.status} ${response.text.slice(0, 300)}`;
    if (one.expect === "accepted")
      return response.status >= 500 || [400, 422].includes(response.status)
        ? `${one.name}: the document admits it, the server answered ${answer}`
        : null;
    if (one.expect === "not_found")
      return response.status === 404 ? null : `${one.name}: expected 404, got ${answer}`;
    if (one.expect === "unknown_parameter")
      return response.status === 400 &&
        problem?.code === "unknown_parameter" &&
        problem.detail.includes(`\`${one.field}\``)
        ? null
        : `${one.name}: the document says 400 unknown_parameter, the server answered ${answer}`;
    if (response.status !== 422 || names.length === 0)
      return `${one.name}: the document refuses it, the server answered ${answer}`;
    if (one.code && !names.some((error) => error.code === one.code))
      return `${one.name}: refused, but with ${names.map((error) => error.code).join(", ")} rather than ${one.code}`;
    return null;
  }

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    "%s",
    async (_name, route) => {
      const operation = document.paths[`${API_PREFIX}${route.path}`]?.[route.method.toLowerCase() as "get"];
      if (!operation) throw new Error(`the document has no ${route.method} ${route.path}`);
      const valid = fixtures.validBody(route);
      const baseline = await disagreement(route, {
        name: "the valid request",
        field: "",
        expect: "accepted",
      });
      expect(baseline).toBeNull();
      const { cases, untestable } = casesFor(document, operation, valid);
      expect(untestable).toEqual([]);
      const found: string[] = [];
      for (const one of cases) {
        const problem = await disagreement(route, one);
        if (problem === null) continue;
        if (!one.otherwise) found.push(problem);
        for (const instead of one.otherwise ?? []) {
          const insteadProblem = await disagreement(route, instead);
          if (insteadProblem) found.push(insteadProblem);
        }
      }
      expect(found).toEqual([]);
    },
  );
});

// An integrator's view: a client typed from the OpenAPI document (openapi-fetch
// over the generated types) creates a supplier user and lists orders.
describe("a client typed from the OpenAPI document", () => {
  let buyer: SeededBuyer;
  let placed: string[];
  let client: ReturnType<typeof createClient<paths>>;

  beforeAll(async () => {
    buyer = await seedBuyer(harness.database, "Typed client");
    placed = await seedOrders(harness.database, buyer, [
      { createdAt: new Date("2025-02-01T10:00:00.000Z"), orderStatus: "order_placed" },
      { createdAt: new Date("2025-02-03T10:00:00.000Z"), orderStatus: "order_placed" },
    ]);
    await seedOrders(harness.database, buyer, [
      { createdAt: new Date("2025-02-02T10:00:00.000Z"), orderStatus: "delivered" },
    ]);
    client = createClient<paths>({
      baseUrl: PUBLIC_BASE_URL,
      fetch: contractFetch(async (request) => harness.app.fetch(request)),
      headers: { "X-API-KEY": buyer.apiKey },
    });
  });

  it("creates a supplier user and gets it back typed", async () => {
    const { data, error, response } = await client.POST(
      "/api/public/buyer/v1/suppliers/{supplier_id}/users",
      {
        params: { path: { supplier_id: buyer.supplierId } },
        body: { first_name: "Grace", last_name: "Hopper", contact_email: "grace.hopper@example.com" },
      },
    );
    expect(error).toBeUndefined();
    expect(response.status).toBe(201);
    const user: { id: string; supplier_profile_id: string; first_name: string | null } | undefined = data;
    expect(user).toMatchObject({ first_name: "Grace", supplier_profile_id: buyer.supplierId });
  });

  it("gets a refusal as a typed problem", async () => {
    const { data, error, response } = await client.POST(
      "/api/public/buyer/v1/suppliers/{supplier_id}/users",
      {
        params: { path: { supplier_id: buyer.supplierId } },
        body: { first_name: "Grace", last_name: "Hopper", contact_email: "GRACE.HOPPER@example.com" },
      },
    );
    expect(data).toBeUndefined();
    expect(response.status).toBe(409);
    expect(error?.code).toBe("already_exists");
    expect(error?.request_id).toBe(response.headers.get("x-request-id"));
  });

  it("lists orders filtered by order_status[], newest first", async () => {
    const { data, error, response } = await client.GET("/api/public/buyer/v1/orders", {
      params: { query: { "order_status[]": ["order_placed"], limit: 10 } },
    });
    expect(error).toBeUndefined();
    expect(response.status).toBe(200);
    expect(data?.map((order) => order.id)).toEqual([placed[1], placed[0]]);
    expect(data?.every((order) => order.order_status === "order_placed")).toBe(true);
  });

  it("follows the Link header to the next page", async () => {
    const first = await client.GET("/api/public/buyer/v1/orders", { params: { query: { limit: 2 } } });
    expect(first.data).toHaveLength(2);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.response.headers.get("link") ?? "")?.[1];
    const cursor = next ? new URL(next).searchParams.get("cursor") : null;
    expect(cursor).toBeTruthy();
    const second = await client.GET("/api/public/buyer/v1/orders", {
      params: { query: { limit: 2, cursor: cursor ?? "" } },
    });
    expect(second.data?.map((order) => order.id)).toEqual([placed[0]]);
    expect(second.response.headers.get("link")).toBeNull();
  });
});
