import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { seedBuyer } from "../support/seed.js";
import { API, createTestApp, type TestApp } from "../support/test-app.js";

const require = createRequire(import.meta.url);
// Not @opentelemetry/api: prom-client loads it whatever tracing does (for exemplars).
const TRACING_PACKAGES = [
  "@opentelemetry/sdk-",
  "@opentelemetry/core",
  "@opentelemetry/resources",
  "@opentelemetry/exporter-",
  "@opentelemetry/otlp-",
  "@opentelemetry/context-async-hooks",
  "@opentelemetry/instrumentation",
  "@prisma/instrumentation",
  "@envelop/opentelemetry",
  "import-in-the-middle",
  "require-in-the-middle",
];

/** The tracing packages Node has loaded in this process so far. */
function loadedTracingModules(): string[] {
  return Object.keys(require.cache).filter((file) =>
    TRACING_PACKAGES.some((name) => file.includes(`/node_modules/${name}`)),
  );
}

let test: TestApp;

beforeAll(async () => {
  test = await createTestApp();
}, 120_000);

afterAll(async () => {
  await test?.close();
});

describe("tracing off (no OTEL_* variable turns it on)", () => {
  it("serves REST and GraphQL without loading the OpenTelemetry SDK, exporters or instrumentations", async () => {
    expect(loadConfig({ PORT: "4000" }).tracing).toBeNull();
    const buyer = await seedBuyer(test.database);
    const rest = await test.app.fetch(`${API}/orders`, {
      headers: {
        "x-api-key": buyer.apiKey,
        traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
      },
    });
    expect(rest.status).toBe(200);
    const graphql = await test.app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "x-api-key": buyer.apiKey, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ orders(first: 1) { edges { node { id } } } }" }),
    });
    expect(graphql.status).toBe(200);
    const metrics = await (await test.app.fetch("http://localhost/metrics")).text();
    expect(metrics).not.toContain("tracing_spans");
    expect(loadedTracingModules()).toEqual([]);
  });

  it("would notice a loaded tracing package (the check above can fail)", async () => {
    await import("@opentelemetry/sdk-trace");
    expect(loadedTracingModules().length).toBeGreaterThan(0);
  });
});
