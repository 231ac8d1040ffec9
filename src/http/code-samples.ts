// Request samples for the reference: for each operation of an OpenAPI
// document, a curl command and a TypeScript call through openapi-fetch, both
// written from the operation's path, method, parameter examples and request
// body example. Redoc shows them from each operation's `x-codeSamples`.

/** What Redoc reads from an operation's `x-codeSamples`. */
export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

// The part of an OpenAPI 3.1 document the samples are written from, typed
// structurally so that this floor does not depend on the document's generator.
interface SampledParameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
}

interface SampledOperation {
  parameters?: (SampledParameter | { $ref: string })[];
  requestBody?: { content: Record<string, { examples?: Record<string, { value?: unknown }> }> };
  "x-codeSamples"?: CodeSample[];
}

export interface SampledDocument {
  info: { description?: string };
  servers?: { url: string }[];
  paths: Record<string, Partial<Record<string, SampledOperation>>>;
  components: { parameters?: Record<string, SampledParameter> };
}

/** The environment variables every sample reads its address and key from. */
export const SAMPLE_URL_VARIABLE = "BUYER_API_URL";
export const SAMPLE_KEY_VARIABLE = "BUYER_API_KEY";

/** The file the TypeScript samples import their types from, as openapi-typescript writes it. */
export const SAMPLE_TYPES_MODULE = "./buyer-api.js";

// A page cursor comes from the Link header of the page before; an invented one is refused.
const OPAQUE_QUERY_PARAMETERS = new Set(["cursor"]);

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/** How to run the samples: the address is the document's server, the types are generated from the document at `documentPath`. */
function howToRun(origin: string, documentPath: string): string {
  return `## Request samples

Every operation below has a curl and a TypeScript sample. Both read the API's address (this server's origin) and your key from the environment:

\`\`\`sh
export ${SAMPLE_URL_VARIABLE}=${origin}
export ${SAMPLE_KEY_VARIABLE}=bpk_…
\`\`\`

The TypeScript samples use [openapi-fetch](https://openapi-ts.dev/openapi-fetch/) with types generated from this document: \`npx openapi-typescript "$${SAMPLE_URL_VARIABLE}${documentPath}" -o buyer-api.ts\`.`;
}

/**
 * A copy of the document, served at `documentPath`, with a curl and a
 * TypeScript sample on every operation.
 */
export function withCodeSamples<Document extends SampledDocument>(
  document: Document,
  documentPath: string,
): Document {
  const copy = structuredClone(document);
  const sampled: SampledDocument = copy;
  const origin = sampled.servers?.[0]?.url ?? "https://<this host>";
  sampled.info.description = [sampled.info.description, howToRun(origin, documentPath)]
    .filter(Boolean)
    .join("\n\n");
  for (const [path, item] of Object.entries(sampled.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const request = sampleRequest(sampled, path, method, operation);
      operation["x-codeSamples"] = [
        { lang: "Shell", label: "curl", source: curlSample(request) },
        { lang: "TypeScript", label: "TypeScript", source: typeScriptSample(request) },
      ];
    }
  }
  return copy;
}

interface SampleRequest {
  method: (typeof METHODS)[number];
  /** The path template, as openapi-fetch takes it. */
  template: string;
  pathValues: Record<string, string>;
  query: [name: string, value: unknown][];
  body: unknown;
}

function sampleRequest(
  document: SampledDocument,
  template: string,
  method: SampleRequest["method"],
  operation: SampledOperation,
): SampleRequest {
  const parameters = (operation.parameters ?? []).map((parameter) => resolve(document, parameter));
  const pathValues: Record<string, string> = {};
  const query: [string, unknown][] = [];
  for (const parameter of parameters) {
    if (parameter.in === "path") {
      if (parameter.example === undefined)
        throw new Error(`${method} ${template}: ${parameter.name} has no example`);
      pathValues[parameter.name] = String(parameter.example);
    } else if (
      parameter.in === "query" &&
      parameter.example !== undefined &&
      !OPAQUE_QUERY_PARAMETERS.has(parameter.name)
    ) {
      query.push([parameter.name, parameter.example]);
    }
  }
  const body = operation.requestBody?.content["application/json"]?.examples;
  return { method, template, pathValues, query, body: body ? Object.values(body)[0]?.value : undefined };
}

function resolve(
  document: SampledDocument,
  parameter: SampledParameter | { $ref: string },
): SampledParameter {
  if (!("$ref" in parameter)) return parameter;
  const name = parameter.$ref.replace("#/components/parameters/", "");
  const found = document.components.parameters?.[name];
  if (!found) throw new Error(`code samples: ${parameter.$ref} points nowhere`);
  return found;
}

function curlSample({ method, template, pathValues, query, body }: SampleRequest): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(pathValues[name] ?? ""),
  );
  const search = query
    .flatMap(([name, value]) =>
      (Array.isArray(value) ? value : [value]).map((item) => `${name}=${encodeURIComponent(String(item))}`),
    )
    .join("&");
  const url = `$${SAMPLE_URL_VARIABLE}${path}${search ? `?${search}` : ""}`;
  // -g: the brackets of `name[]` are part of the URL, not a curl glob.
  const options = [
    "-sS",
    ...(url.includes("[") ? ["-g"] : []),
    ...(method === "get" ? [] : ["-X", method.toUpperCase()]),
  ];
  const lines = [`curl ${options.join(" ")} "${url}"`, `-H "X-API-KEY: $${SAMPLE_KEY_VARIABLE}"`];
  if (body !== undefined) {
    lines.push(`-H "Content-Type: application/json"`);
    lines.push(`-d ${shellQuote(JSON.stringify(body, null, 2))}`);
  }
  return `${lines.join(" \\\n  ")}\n`;
}

/** Single quotes keep everything literal; a single quote itself is closed, escaped and reopened. */
function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

function typeScriptSample({ method, template, pathValues, query, body }: SampleRequest): string {
  const params: Record<string, unknown> = {};
  if (Object.keys(pathValues).length > 0) params.path = pathValues;
  if (query.length > 0) params.query = Object.fromEntries(query);
  const options: Record<string, unknown> = {};
  if (Object.keys(params).length > 0) options.params = params;
  if (body !== undefined) options.body = body;
  const call = `client.${method.toUpperCase()}(${JSON.stringify(template)}${
    Object.keys(options).length > 0 ? `, ${typeScriptLiteral(options, "")}` : ""
  })`;
  return `import createClient from "openapi-fetch";
import type { paths } from "${SAMPLE_TYPES_MODULE}";

const client = createClient<paths>({
  baseUrl: process.env.${SAMPLE_URL_VARIABLE},
  headers: { "X-API-KEY": process.env.${SAMPLE_KEY_VARIABLE} },
});

const { data, error, response } = await ${call};
console.log(response.status, error ?? data);
`;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const INLINE_WIDTH = 72;

/** A value as a TypeScript literal: short objects and arrays on one line, longer ones one member a line. */
function typeScriptLiteral(value: unknown, indent: string): string {
  if (typeof value !== "object" || value === null) return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const items = value.map((item) => typeScriptLiteral(item, inner));
    const inline = `[${items.join(", ")}]`;
    return inline.length <= INLINE_WIDTH && !inline.includes("\n")
      ? inline
      : `[\n${items.map((item) => `${inner}${item},`).join("\n")}\n${indent}]`;
  }
  const members = Object.entries(value).map(
    ([key, member]) =>
      `${IDENTIFIER.test(key) ? key : JSON.stringify(key)}: ${typeScriptLiteral(member, inner)}`,
  );
  const inline = `{ ${members.join(", ")} }`;
  return inline.length <= INLINE_WIDTH && !inline.includes("\n")
    ? inline
    : `{\n${members.map((member) => `${inner}${member},`).join("\n")}\n${indent}}`;
}
