import { createHash } from "node:crypto";
import { promisify } from "node:util";
import {
  brotliCompress,
  brotliCompressSync,
  brotliDecompress,
  constants,
  gunzip,
  gzip,
  gzipSync,
} from "node:zlib";
import { Response as ServedResponse } from "@whatwg-node/server";
import { LRUCache } from "lru-cache";
import { codedEntityTag } from "./entity-tag.js";

// Response compression (docs/design/decisions.md, "Compression"): brotli or gzip as
// the client's Accept-Encoding prefers, for the types below, from 1 KiB up.

/** A content coding this service answers in; identity is the body as it is. */
export type ContentCoding = "br" | "gzip" | "identity";

/** Smaller bodies go out as they are: a coding would save less than its headers and CPU cost. */
export const MIN_COMPRESSED_BYTES = 1024;

/** JSON (answers, problems, the OpenAPI document), the reference page and GraphiQL, their scripts and styles, metrics. */
const COMPRESSIBLE_TYPE =
  /^\s*(?:application\/(?:[\w.-]+\+)?json|application\/javascript|text\/(?:html|javascript|css|plain))\s*(?:;|$)/i;

// An executed read is coded on every request: brotli at the lowest quality
// whose bytes are smaller than gzip 6's on JSON pages (docs/design/performance.md).
// Under 16 KiB that takes quality 5, which costs little on a small body. A
// large page coded once and kept (GraphiQL, the reference bundle) earns more.
const BROTLI_QUALITY = 3;
const SMALL_BODY_BROTLI_QUALITY = 5;
const SMALL_BODY_BYTES = 16 * 1024;
const KEPT_BROTLI_QUALITY = 6;
const GZIP_LEVEL = 6;

/**
 * From this size up, a body that is no one's own data (not private, not
 * no-store) is one of a few pages (GraphiQL, the Redoc bundle, the OpenAPI
 * document) served again and again: its coded bytes are kept by a hash of the
 * body, which costs a small part of coding it again.
 */
const LARGE_BODY_BYTES = 256 * 1024;
const LARGE_BODIES_KEPT_BYTES = 16 * 1024 * 1024;

const brotliCompressAsync = promisify(brotliCompress);
const brotliDecompressAsync = promisify(brotliDecompress);
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** `br;q=0.8` → ["br", 0.8]; null for an element whose weight is malformed, which then counts as not sent. */
function parseElement(element: string): [coding: string, quality: number] | null {
  const [name = "", ...parameters] = element.split(";");
  let quality = 1;
  for (const parameter of parameters) {
    const match = /^\s*q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)\s*$/i.exec(parameter);
    if (!match?.[1]) return null;
    quality = Number(match[1]);
  }
  return [name.trim().toLowerCase(), quality];
}

/** What a request's Accept-Encoding allows: the coding it prefers, and whether a body may go out as it is. */
export interface AcceptedCoding {
  preferred: ContentCoding;
  /** False when the request refuses identity (`identity;q=0`, or `*;q=0` not naming it) and accepts a coding. */
  identity: boolean;
}

/**
 * What the request accepts (RFC 9110 §12.5.3): it prefers the highest weight
 * among br, gzip and identity, br first and identity last on a tie; `*` weighs
 * the codings not named. Identity outweighs a coding only when named with a
 * higher weight. No header, or a header refusing every coding, gets identity:
 * the body as it is is always sent.
 */
export function negotiateCoding(acceptEncoding: string | null): AcceptedCoding {
  if (acceptEncoding === null) return { preferred: "identity", identity: true };
  const weights = new Map<string, number>();
  for (const element of acceptEncoding.split(",")) {
    if (element.trim() === "") continue;
    const parsed = parseElement(element);
    if (parsed) weights.set(parsed[0] === "x-gzip" ? "gzip" : parsed[0], parsed[1]);
  }
  const any = weights.get("*");
  const br = weights.get("br") ?? any ?? 0;
  const gzip = weights.get("gzip") ?? any ?? 0;
  if (br <= 0 && gzip <= 0) return { preferred: "identity", identity: true };
  const identity = weights.get("identity");
  const identityRefused = (identity ?? any) === 0;
  if (identity !== undefined && identity > Math.max(br, gzip))
    return { preferred: "identity", identity: true };
  return { preferred: br >= gzip ? "br" : "gzip", identity: !identityRefused };
}

/**
 * The coding a body of `plainBytes` goes out in: the preferred one, except
 * that a body under 1 KiB goes as it is where the request allows it.
 */
export function codingFor(accepted: AcceptedCoding, plainBytes: number): ContentCoding {
  return plainBytes < MIN_COMPRESSED_BYTES && accepted.identity ? "identity" : accepted.preferred;
}

/** Bytes of their own, so that the response cache can free them without touching a shared pool. */
function owned(buffer: Buffer): Uint8Array<ArrayBuffer> {
  const whole = buffer.buffer;
  if (whole instanceof ArrayBuffer && buffer.byteOffset === 0 && buffer.byteLength === whole.byteLength) {
    return new Uint8Array(whole);
  }
  return new Uint8Array(buffer);
}

/**
 * The smallest brotli window that holds the whole body: the same bytes as the
 * default 4 MiB window, without allocating and clearing it for every answer.
 */
function windowBitsFor(size: number): number {
  const bits = Math.ceil(Math.log2(Math.max(size, 1)));
  return Math.min(constants.BROTLI_MAX_WINDOW_BITS, Math.max(constants.BROTLI_MIN_WINDOW_BITS, bits));
}

/**
 * Bodies up to this size are coded on the spot: handing one to the thread
 * pool costs more CPU than coding it. A bigger body goes there, so that the
 * event loop is not held long.
 */
const CODED_IN_LINE_BYTES = 256 * 1024;

/** The body in `coding`; `body` is read, never kept. */
export async function encodeBody(
  body: string | Uint8Array,
  coding: Exclude<ContentCoding, "identity">,
  keptBrotliQuality?: number,
): Promise<Uint8Array<ArrayBuffer>> {
  const size = typeof body === "string" ? Buffer.byteLength(body) : body.byteLength;
  const brotliQuality =
    keptBrotliQuality ?? (size < SMALL_BODY_BYTES ? SMALL_BODY_BROTLI_QUALITY : BROTLI_QUALITY);
  const inLine = size <= CODED_IN_LINE_BYTES;
  if (coding === "gzip") {
    const options = { level: GZIP_LEVEL };
    return owned(inLine ? gzipSync(body, options) : await gzipAsync(body, options));
  }
  const options = {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: brotliQuality,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
      [constants.BROTLI_PARAM_LGWIN]: windowBitsFor(size),
    },
  };
  return owned(inLine ? brotliCompressSync(body, options) : await brotliCompressAsync(body, options));
}

/** The body `encodeBody` wrote, as it was. */
export async function decodeBody(
  body: Uint8Array,
  coding: Exclude<ContentCoding, "identity">,
): Promise<Uint8Array<ArrayBuffer>> {
  return owned(coding === "gzip" ? await gunzipAsync(body) : await brotliDecompressAsync(body));
}

/** Adds Accept-Encoding to Vary once, beside whatever else the answer varies on. */
export function varyOnAcceptEncoding(headers: Headers): void {
  const vary = headers.get("vary");
  if (vary === null) headers.set("vary", "Accept-Encoding");
  else if (!/(?:^|,)\s*(?:accept-encoding|\*)\s*(?:,|$)/i.test(vary))
    headers.append("vary", "Accept-Encoding");
}

/** The headers of an answer sent in `coding`: its length goes, its tag names the coding. */
export function codedHeaders(headers: Iterable<[string, string]>, coding: ContentCoding): [string, string][] {
  const coded: [string, string][] = [];
  for (const [name, value] of headers) {
    if (name === "content-length") continue;
    coded.push([name, name === "etag" ? codedEntityTag(value, coding) : value]);
  }
  if (coding !== "identity") coded.push(["content-encoding", coding]);
  return coded;
}

/**
 * Whether a response is of a kind this step codes: a whole answer of a
 * compressible type. Its body is not looked at: @whatwg-node makes a stream,
 * and a copy of a text, for whoever reads `body`.
 */
function compressible(response: Response): boolean {
  if (response.status === 204 || response.status === 206) return false;
  return COMPRESSIBLE_TYPE.test(response.headers.get("content-type") ?? "");
}

export interface Compression {
  /** What the request accepts; identity alone when compression is off. */
  acceptedBy(request: Request): AcceptedCoding;
  /**
   * The answer to `request` in the coding it prefers. Event streams, 204s
   * and 304s, small bodies and bodies already coded go out as they are.
   */
  compress(request: Request, response: Response): Promise<Response>;
}

/** Off (COMPRESSION=false): a proxy in front compresses, and answers go out as they are. */
export function createCompression(enabled: boolean): Compression {
  if (!enabled)
    return {
      acceptedBy: () => ({ preferred: "identity", identity: true }),
      compress: async (_request, response) => response,
    };
  const acceptedBy = (request: Request) => negotiateCoding(request.headers.get("accept-encoding"));
  const largeBodies = new LRUCache<string, Uint8Array<ArrayBuffer>>({
    maxSize: LARGE_BODIES_KEPT_BYTES,
    sizeCalculation: (coded) => coded.byteLength,
  });
  /** Large bodies are coded once and then shared; nothing frees them by hand, so sharing is safe. */
  const encodeLarge = async (body: Uint8Array, coding: Exclude<ContentCoding, "identity">) => {
    const key = `${coding} ${createHash("sha256").update(body).digest("base64")}`;
    const kept = largeBodies.get(key);
    if (kept) return kept;
    const coded = await encodeBody(body, coding, KEPT_BROTLI_QUALITY);
    largeBodies.set(key, coded);
    return coded;
  };
  return {
    acceptedBy,
    async compress(request, response) {
      // A 304 stands for a conditional read's JSON, whose coding followed Accept-Encoding.
      if (response.status === 304) {
        varyOnAcceptEncoding(response.headers);
        return response;
      }
      if (!compressible(response)) return response;
      varyOnAcceptEncoding(response.headers);
      if (response.headers.has("content-encoding")) return response;
      if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(response.headers.get("cache-control") ?? ""))
        return response;
      const accepted = acceptedBy(request);
      if (accepted.preferred === "identity") return response;
      // A body with a declared length is there; only one without is looked at (reading `body` copies it).
      const declaredLength = response.headers.get("content-length");
      if (
        declaredLength === null
          ? response.body === null
          : codingFor(accepted, Number(declaredLength)) === "identity"
      )
        return response;
      const body = new Uint8Array(await response.arrayBuffer());
      const coding = codingFor(accepted, body.byteLength);
      const shared = !/(?:^|,)\s*(?:private|no-store)\b/i.test(response.headers.get("cache-control") ?? "");
      const sent =
        coding === "identity"
          ? body
          : shared && body.byteLength >= LARGE_BODY_BYTES
            ? await encodeLarge(body, coding)
            : await encodeBody(body, coding);
      return new ServedResponse(sent, {
        status: response.status,
        statusText: response.statusText,
        headers: codedHeaders(response.headers, coding),
      });
    },
  };
}
