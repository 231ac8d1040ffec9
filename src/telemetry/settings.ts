// Which standard OTEL_* variables turn tracing on, and what they may hold.
// Read by config.ts with the rest of the configuration, so that a bad value
// stops the process at start with one line, like any other variable. Nothing
// here loads OpenTelemetry: that happens only once tracing is on (tracing.ts).

export const SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;
export type SamplerName = (typeof SAMPLERS)[number];

export const PROTOCOLS = ["http/protobuf", "http/json"] as const;
export type ExportProtocol = (typeof PROTOCOLS)[number];

export interface BatchSettings {
  /** Milliseconds between two exports of queued spans. */
  scheduleDelayMs: number;
  /** How long one export may take before the next batch goes. */
  exportTimeoutMs: number;
  /** Finished spans held for export; past this, spans are dropped and counted. */
  maxQueueSize: number;
  maxExportBatchSize: number;
}

export interface TracingSettings {
  serviceName: string;
  /** OTEL_RESOURCE_ATTRIBUTES, decoded. */
  resourceAttributes: Record<string, string>;
  /** The full URL spans are POSTed to. */
  tracesUrl: string;
  protocol: ExportProtocol;
  /** Sent with each export (e.g. the collector's credentials); never logged. */
  headers: Record<string, string>;
  exportTimeoutMs: number;
  compression: "gzip" | "none";
  sampler: SamplerName;
  /** Share of new traces kept by the ratio samplers, 0 to 1. */
  samplerRatio: number;
  batch: BatchSettings;
  /** Whether an incoming W3C `traceparent` is continued (OTEL_PROPAGATORS includes tracecontext). */
  continueIncomingTraces: boolean;
}

export const DEFAULT_SERVICE_NAME = "buyer-public-api";
const DEFAULT_ENDPOINT = "http://localhost:4318";

export interface TracingSettingsResult {
  /** Null when tracing is off. */
  settings: TracingSettings | null;
  /** One line per bad variable, `NAME: why`, never echoing a value that may be a secret. */
  problems: string[];
}

/**
 * Tracing is on when OTEL_TRACES_EXPORTER is `otlp`, or when it is unset and
 * an OTLP endpoint (OTEL_EXPORTER_OTLP_ENDPOINT or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set; OTEL_SDK_DISABLED=true and
 * OTEL_TRACES_EXPORTER=none turn it off. Every variable below is checked
 * whether tracing is on or not.
 */
export function readTracingSettings(env: NodeJS.ProcessEnv): TracingSettingsResult {
  const variables = new OtelVariables(env);
  const { disabledValue, exporter } = readSwitches(variables);
  const { tracesEndpoint, baseEndpoint, endpointGiven } = readEndpoints(variables);
  const protocol = readProtocol(variables);
  const headers = readHeaders(variables);
  const resourceAttributes = readResourceAttributes(variables);
  const exportTimeoutMs = variables.integer(
    ["OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"],
    10_000,
    1,
  );
  const compression = readCompression(variables);
  const { sampler, samplerRatio } = readSampler(variables);
  const batch = readBatch(variables);
  const continueIncomingTraces = readPropagators(variables);

  const { problems } = variables;
  const on = disabledValue !== "true" && exporter !== "none" && (exporter === "otlp" || endpointGiven);
  if (problems.length > 0 || !on) return { settings: null, problems };

  const tracesUrl = tracesEndpoint ?? `${(baseEndpoint ?? DEFAULT_ENDPOINT).replace(/\/+$/, "")}/v1/traces`;
  const attributes = resourceAttributes ?? {};
  return {
    problems,
    settings: {
      serviceName: variables.value("OTEL_SERVICE_NAME") ?? attributes["service.name"] ?? DEFAULT_SERVICE_NAME,
      resourceAttributes: attributes,
      tracesUrl,
      protocol,
      headers,
      exportTimeoutMs,
      compression,
      sampler,
      samplerRatio,
      batch,
      continueIncomingTraces,
    },
  };
}

/** The environment's OTEL_* variables, and the problems found in them so far. */
class OtelVariables {
  readonly problems: string[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The variable's text, trimmed; undefined when unset or blank. */
  value(name: string): string | undefined {
    const raw = this.env[name]?.trim();
    return raw === undefined || raw === "" ? undefined : raw;
  }

  problem(name: string, why: string): void {
    this.problems.push(`${name}: ${why}`);
  }

  /** The first of `names` that is set, as a whole number of at least `min`; else `fallback`. */
  integer(names: string[], fallback: number, min: number): number {
    const name = names.find((candidate) => this.value(candidate) !== undefined);
    if (!name) return fallback;
    const raw = this.value(name) ?? "";
    const parsed = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(parsed) || parsed < min) {
      this.problem(name, `must be a whole number, at least ${min}`);
      return fallback;
    }
    return parsed;
  }

  /** The variable, when it is an absolute http(s) URL. */
  endpoint(name: string): string | undefined {
    const raw = this.value(name);
    if (raw === undefined) return undefined;
    if (!isHttpUrl(raw)) {
      this.problem(name, "must be an absolute http(s) URL such as http://collector:4318");
      return undefined;
    }
    return raw;
  }
}

/** OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER, lower-cased. */
function readSwitches(variables: OtelVariables): {
  disabledValue: string | undefined;
  exporter: string | undefined;
} {
  const disabledValue = variables.value("OTEL_SDK_DISABLED")?.toLowerCase();
  if (disabledValue !== undefined && disabledValue !== "true" && disabledValue !== "false") {
    variables.problem("OTEL_SDK_DISABLED", "must be true or false");
  }
  const exporter = variables.value("OTEL_TRACES_EXPORTER")?.toLowerCase();
  if (exporter !== undefined && exporter !== "otlp" && exporter !== "none") {
    variables.problem(
      "OTEL_TRACES_EXPORTER",
      "must be otlp or none (spans are exported over OTLP/HTTP only)",
    );
  }
  return { disabledValue, exporter };
}

function readEndpoints(variables: OtelVariables): {
  tracesEndpoint: string | undefined;
  baseEndpoint: string | undefined;
  /** Whether either endpoint variable is set, valid or not. */
  endpointGiven: boolean;
} {
  const tracesEndpoint = variables.endpoint("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  const baseEndpoint = variables.endpoint("OTEL_EXPORTER_OTLP_ENDPOINT");
  const endpointGiven =
    variables.value("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") !== undefined ||
    variables.value("OTEL_EXPORTER_OTLP_ENDPOINT") !== undefined;
  return { tracesEndpoint, baseEndpoint, endpointGiven };
}

function readProtocol(variables: OtelVariables): ExportProtocol {
  const protocolName = variables.value("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
    ? "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"
    : "OTEL_EXPORTER_OTLP_PROTOCOL";
  const protocolValue = variables.value(protocolName) ?? "http/protobuf";
  if ((PROTOCOLS as readonly string[]).includes(protocolValue)) return protocolValue as ExportProtocol;
  variables.problem(protocolName, "must be http/protobuf or http/json (gRPC is not supported)");
  return "http/protobuf";
}

/** The headers of OTEL_EXPORTER_OTLP_HEADERS, then those of OTEL_EXPORTER_OTLP_TRACES_HEADERS over them. */
function readHeaders(variables: OtelVariables): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of ["OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"]) {
    const raw = variables.value(name);
    if (raw === undefined) continue;
    const pairs = parseKeyValueList(raw);
    if (pairs) Object.assign(headers, pairs);
    else variables.problem(name, "must be a comma-separated list of name=value (values percent-encoded)");
  }
  return headers;
}

/** OTEL_RESOURCE_ATTRIBUTES decoded, or null when it is not a key=value list. */
function readResourceAttributes(variables: OtelVariables): Record<string, string> | null {
  const resourceRaw = variables.value("OTEL_RESOURCE_ATTRIBUTES");
  const resourceAttributes = resourceRaw === undefined ? {} : parseKeyValueList(resourceRaw);
  if (!resourceAttributes) {
    variables.problem(
      "OTEL_RESOURCE_ATTRIBUTES",
      "must be a comma-separated list of key=value (values percent-encoded)",
    );
  }
  return resourceAttributes;
}

function readCompression(variables: OtelVariables): "gzip" | "none" {
  const compressionName = variables.value("OTEL_EXPORTER_OTLP_TRACES_COMPRESSION")
    ? "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION"
    : "OTEL_EXPORTER_OTLP_COMPRESSION";
  const compressionValue = variables.value(compressionName)?.toLowerCase() ?? "none";
  if (compressionValue !== "gzip" && compressionValue !== "none") {
    variables.problem(compressionName, "must be gzip or none");
  }
  return compressionValue === "gzip" ? "gzip" : "none";
}

function readSampler(variables: OtelVariables): { sampler: SamplerName; samplerRatio: number } {
  const samplerValue = variables.value("OTEL_TRACES_SAMPLER")?.toLowerCase() ?? "parentbased_always_on";
  let sampler: SamplerName = "parentbased_always_on";
  if ((SAMPLERS as readonly string[]).includes(samplerValue)) sampler = samplerValue as SamplerName;
  else variables.problem("OTEL_TRACES_SAMPLER", `must be one of ${SAMPLERS.join(", ")}`);
  let samplerRatio = 1;
  const ratioRaw = variables.value("OTEL_TRACES_SAMPLER_ARG");
  if (sampler.endsWith("traceidratio") && ratioRaw !== undefined) {
    const ratio = Number(ratioRaw);
    if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1 || !/^[\d.eE+-]+$/.test(ratioRaw)) {
      variables.problem("OTEL_TRACES_SAMPLER_ARG", `must be a number from 0 to 1 for ${sampler}`);
    } else {
      samplerRatio = ratio;
    }
  }
  return { sampler, samplerRatio };
}

function readBatch(variables: OtelVariables): BatchSettings {
  const batch: BatchSettings = {
    scheduleDelayMs: variables.integer(["OTEL_BSP_SCHEDULE_DELAY"], 5_000, 0),
    exportTimeoutMs: variables.integer(["OTEL_BSP_EXPORT_TIMEOUT"], 30_000, 1),
    maxQueueSize: variables.integer(["OTEL_BSP_MAX_QUEUE_SIZE"], 2_048, 1),
    maxExportBatchSize: variables.integer(["OTEL_BSP_MAX_EXPORT_BATCH_SIZE"], 512, 1),
  };
  if (batch.maxExportBatchSize > batch.maxQueueSize && variables.value("OTEL_BSP_MAX_EXPORT_BATCH_SIZE")) {
    variables.problem("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "must not exceed OTEL_BSP_MAX_QUEUE_SIZE");
  }
  return batch;
}

/** Whether OTEL_PROPAGATORS continues an incoming W3C `traceparent`. */
function readPropagators(variables: OtelVariables): boolean {
  const propagators = (variables.value("OTEL_PROPAGATORS") ?? "tracecontext,baggage")
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== "");
  const unknownPropagators = propagators.filter(
    (name) => !["tracecontext", "baggage", "none"].includes(name),
  );
  if (unknownPropagators.length > 0) {
    variables.problem("OTEL_PROPAGATORS", "must be a comma-separated list of tracecontext, baggage or none");
  }
  return propagators.includes("tracecontext");
}

function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname !== "";
  } catch {
    return false;
  }
}

/** `a=1,b=x%20y` as a record, or null when an entry is not `key=value`. */
function parseKeyValueList(raw: string): Record<string, string> | null {
  const record: Record<string, string> = {};
  for (const entry of raw.split(",")) {
    if (entry.trim() === "") continue;
    const separator = entry.indexOf("=");
    if (separator <= 0) return null;
    const key = entry.slice(0, separator).trim();
    if (key === "" || /\s/.test(key)) return null;
    try {
      record[key] = decodeURIComponent(entry.slice(separator + 1).trim());
    } catch {
      return null;
    }
  }
  return record;
}
