import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

/** One span as a collector received it; ids in lowercase hex, "" for no parent. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** OTLP's StatusCode: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  scope: string;
  serviceName: string;
}

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  spans: ReceivedSpan[];
  /** Content types of the export requests received, in order. */
  contentTypes: string[];
  /** Resolves once a span matching `predicate` has arrived. */
  waitForSpan(predicate: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

/**
 * A real OTLP/HTTP trace receiver on localhost: accepts POST /v1/traces in
 * JSON or protobuf (optionally gzipped) and decodes the spans, as a collector
 * would.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method !== "POST" || request.url !== "/v1/traces") {
        response.writeHead(404).end();
        return;
      }
      let body = Buffer.concat(chunks);
      if (request.headers["content-encoding"] === "gzip") body = gunzipSync(body);
      const contentType = request.headers["content-type"] ?? "";
      contentTypes.push(contentType);
      const received = contentType.includes("json") ? decodeJson(body) : decodeProtobuf(body);
      spans.push(...received);
      for (const wake of waiters) wake();
      if (contentType.includes("json")) {
        response.writeHead(200, { "content-type": "application/json" }).end("{}");
      } else {
        response.writeHead(200, { "content-type": "application/x-protobuf" }).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    waitForSpan(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = spans.find(predicate);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `no such span within ${timeoutMs} ms; received: ${spans.map((s) => s.name).join(", ")}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// --- OTLP JSON (ExportTraceServiceRequest, ids in hex) ---

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
}
interface JsonKeyValue {
  key: string;
  value: JsonAnyValue;
}
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: JsonKeyValue[];
  status?: { code?: number };
}
interface JsonRequest {
  resourceSpans?: {
    resource?: { attributes?: JsonKeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: JsonSpan[] }[];
  }[];
}

function jsonAttributes(list: JsonKeyValue[] = []): Record<string, string | number | boolean> {
  const record: Record<string, string | number | boolean> = {};
  for (const { key, value } of list) {
    if (value.stringValue !== undefined) record[key] = value.stringValue;
    else if (value.boolValue !== undefined) record[key] = value.boolValue;
    else if (value.intValue !== undefined) record[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) record[key] = value.doubleValue;
  }
  return record;
}

function decodeJson(body: Buffer): ReceivedSpan[] {
  const request = JSON.parse(body.toString("utf8")) as JsonRequest;
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const serviceName = String(jsonAttributes(resourceSpans.resource?.attributes)["service.name"] ?? "");
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        traceId: span.traceId.toLowerCase(),
        spanId: span.spanId.toLowerCase(),
        parentSpanId: (span.parentSpanId ?? "").toLowerCase(),
        name: span.name,
        kind: span.kind,
        attributes: jsonAttributes(span.attributes),
        statusCode: span.status?.code ?? 0,
        scope: scopeSpans.scope?.name ?? "",
        serviceName,
      })),
    );
  });
}

// --- OTLP protobuf: just enough of the wire format for ExportTraceServiceRequest ---

type Field =
  | { number: number; varint: bigint }
  | { number: number; bytes: Buffer }
  | { number: number; fixed: Buffer };

function readFields(buffer: Buffer): Field[] {
  const fields: Field[] = [];
  let offset = 0;
  const readVarint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buffer[offset++];
      if (byte === undefined) throw new Error("truncated varint");
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (offset < buffer.length) {
    const tag = Number(readVarint());
    const number = tag >>> 3;
    switch (tag & 7) {
      case 0:
        fields.push({ number, varint: readVarint() });
        break;
      case 1:
        fields.push({ number, fixed: buffer.subarray(offset, offset + 8) });
        offset += 8;
        break;
      case 2: {
        const length = Number(readVarint());
        fields.push({ number, bytes: buffer.subarray(offset, offset + length) });
        offset += length;
        break;
      }
      case 5:
        fields.push({ number, fixed: buffer.subarray(offset, offset + 4) });
        offset += 4;
        break;
      default:
        throw new Error(`unsupported wire type in field ${number}`);
    }
  }
  return fields;
}

const bytesOf = (fields: Field[], number: number): Buffer[] =>
  fields.flatMap((field) => (field.number === number && "bytes" in field ? [field.bytes] : []));
const firstBytes = (fields: Field[], number: number): Buffer | undefined => bytesOf(fields, number)[0];
const varintOf = (fields: Field[], number: number): number => {
  const field = fields.find((candidate) => candidate.number === number && "varint" in candidate);
  return field && "varint" in field ? Number(field.varint) : 0;
};

function protobufAttributes(keyValues: Buffer[]): Record<string, string | number | boolean> {
  const record: Record<string, string | number | boolean> = {};
  for (const keyValue of keyValues) {
    const fields = readFields(keyValue);
    const key = firstBytes(fields, 1)?.toString("utf8") ?? "";
    const value = readFields(firstBytes(fields, 2) ?? Buffer.alloc(0));
    const [field] = value;
    if (!field) continue;
    if (field.number === 1 && "bytes" in field) record[key] = field.bytes.toString("utf8");
    else if (field.number === 2 && "varint" in field) record[key] = field.varint !== 0n;
    else if (field.number === 3 && "varint" in field) record[key] = Number(BigInt.asIntN(64, field.varint));
    else if (field.number === 4 && "fixed" in field) record[key] = field.fixed.readDoubleLE(0);
  }
  return record;
}

function decodeProtobuf(body: Buffer): ReceivedSpan[] {
  return bytesOf(readFields(body), 1).flatMap((resourceSpansBytes) => {
    const resourceSpans = readFields(resourceSpansBytes);
    const resource = readFields(firstBytes(resourceSpans, 1) ?? Buffer.alloc(0));
    const serviceName = String(protobufAttributes(bytesOf(resource, 1))["service.name"] ?? "");
    return bytesOf(resourceSpans, 2).flatMap((scopeSpansBytes) => {
      const scopeSpans = readFields(scopeSpansBytes);
      const scope =
        firstBytes(readFields(firstBytes(scopeSpans, 1) ?? Buffer.alloc(0)), 1)?.toString("utf8") ?? "";
      return bytesOf(scopeSpans, 2).map((spanBytes) => {
        const span = readFields(spanBytes);
        const status = readFields(firstBytes(span, 15) ?? Buffer.alloc(0));
        return {
          traceId: firstBytes(span, 1)?.toString("hex") ?? "",
          spanId: firstBytes(span, 2)?.toString("hex") ?? "",
          parentSpanId: firstBytes(span, 4)?.toString("hex") ?? "",
          name: firstBytes(span, 5)?.toString("utf8") ?? "",
          kind: varintOf(span, 6),
          attributes: protobufAttributes(bytesOf(span, 9)),
          statusCode: varintOf(status, 3),
          scope,
          serviceName,
        };
      });
    });
  });
}
