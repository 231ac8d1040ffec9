import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { configProblems } from "../support/config-problems.js";

describe("tracing configuration (standard OTEL_* variables)", () => {
  it("is off unless an OTLP endpoint or OTEL_TRACES_EXPORTER=otlp turns it on", () => {
    expect(loadConfig({}).tracing).toBeNull();
    expect(loadConfig({ OTEL_SERVICE_NAME: "api", OTEL_TRACES_SAMPLER: "always_on" }).tracing).toBeNull();
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" }).tracing).toMatchObject({
      tracesUrl: "http://collector:4318/v1/traces",
      protocol: "http/protobuf",
      serviceName: "buyer-public-api",
      sampler: "parentbased_always_on",
      continueIncomingTraces: true,
    });
    expect(loadConfig({ OTEL_TRACES_EXPORTER: "otlp" }).tracing?.tracesUrl).toBe(
      "http://localhost:4318/v1/traces",
    );
  });

  it("uses a traces endpoint as given, and the other variables as the OpenTelemetry specification reads them", () => {
    const tracing = loadConfig({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://ignored:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://collector.example.com/otlp/traces",
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_EXPORTER_OTLP_HEADERS: "authorization=Bearer%20s3cret,x-team=buyers",
      OTEL_EXPORTER_OTLP_TIMEOUT: "2500",
      OTEL_EXPORTER_OTLP_COMPRESSION: "gzip",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      OTEL_BSP_MAX_QUEUE_SIZE: "100",
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "50",
      OTEL_RESOURCE_ATTRIBUTES: "deployment.environment.name=staging,service.name=from-resource",
      OTEL_PROPAGATORS: "baggage",
    }).tracing;
    expect(tracing).toMatchObject({
      tracesUrl: "https://collector.example.com/otlp/traces",
      protocol: "http/json",
      headers: { authorization: "Bearer s3cret", "x-team": "buyers" },
      exportTimeoutMs: 2500,
      compression: "gzip",
      sampler: "parentbased_traceidratio",
      samplerRatio: 0.25,
      batch: { maxQueueSize: 100, maxExportBatchSize: 50, scheduleDelayMs: 5000, exportTimeoutMs: 30000 },
      serviceName: "from-resource",
      resourceAttributes: { "deployment.environment.name": "staging" },
      continueIncomingTraces: false,
    });
  });

  it("stays off when OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, whatever the endpoint", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
    expect(loadConfig({ ...endpoint, OTEL_SDK_DISABLED: "true" }).tracing).toBeNull();
    expect(loadConfig({ ...endpoint, OTEL_SDK_DISABLED: "TRUE" }).tracing).toBeNull();
    expect(loadConfig({ ...endpoint, OTEL_TRACES_EXPORTER: "none" }).tracing).toBeNull();
    expect(loadConfig({ ...endpoint, OTEL_SDK_DISABLED: "false" }).tracing).not.toBeNull();
  });

  it("names every bad OTEL_* variable, one line each, with the rest of the configuration", () => {
    const problems = configProblems({
      PORT: "eighty",
      OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318",
      OTEL_TRACES_EXPORTER: "jaeger",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
      OTEL_TRACES_SAMPLER: "sometimes",
      OTEL_EXPORTER_OTLP_TIMEOUT: "10s",
      OTEL_BSP_MAX_QUEUE_SIZE: "0",
      OTEL_SDK_DISABLED: "perhaps",
      OTEL_PROPAGATORS: "b3",
    });
    expect(problems).toEqual([
      expect.stringMatching(/^PORT: /),
      "OTEL_SDK_DISABLED: must be true or false",
      "OTEL_TRACES_EXPORTER: must be otlp or none (spans are exported over OTLP/HTTP only)",
      "OTEL_EXPORTER_OTLP_ENDPOINT: must be an absolute http(s) URL such as http://collector:4318",
      "OTEL_EXPORTER_OTLP_PROTOCOL: must be http/protobuf or http/json (gRPC is not supported)",
      "OTEL_EXPORTER_OTLP_TIMEOUT: must be a whole number, at least 1",
      expect.stringMatching(/^OTEL_TRACES_SAMPLER: must be one of always_on, /),
      "OTEL_BSP_MAX_QUEUE_SIZE: must be a whole number, at least 1",
      "OTEL_PROPAGATORS: must be a comma-separated list of tracecontext, baggage or none",
    ]);
  });

  it("checks the sampler's ratio, and the batch size against the queue", () => {
    expect(configProblems({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "1.5" })).toEqual([
      "OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1 for traceidratio",
    ]);
    expect(
      configProblems({ OTEL_TRACES_SAMPLER: "traceidratio", OTEL_TRACES_SAMPLER_ARG: "half" }),
    ).toHaveLength(1);
    expect(configProblems({ OTEL_BSP_MAX_QUEUE_SIZE: "10", OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "20" })).toEqual([
      "OTEL_BSP_MAX_EXPORT_BATCH_SIZE: must not exceed OTEL_BSP_MAX_QUEUE_SIZE",
    ]);
  });

  it("never repeats a header's value, which may be the collector's credentials", () => {
    const problems = configProblems({ OTEL_EXPORTER_OTLP_HEADERS: "authorization Bearer-s3cret-token" });
    expect(problems).toEqual([
      "OTEL_EXPORTER_OTLP_HEADERS: must be a comma-separated list of name=value (values percent-encoded)",
    ]);
    expect(problems.join("\n")).not.toContain("s3cret");
  });
});
