import { readLimitedBytes } from "./limited-body.js";
import type { Problem } from "./problem.js";

export const MAX_BODY_BYTES = 1024 * 1024;
/** No request of the contract nests deeper than a few levels; far deeper JSON would overflow recursive code. */
export const MAX_BODY_DEPTH = 32;

export type JsonObject = Record<string, unknown>;

const tooLarge: Problem = {
  status: 413,
  code: "payload_too_large",
  detail: `The request body is larger than ${MAX_BODY_BYTES} bytes`,
};

/**
 * Reads a JSON object body. An empty body counts as `{}`; anything else must
 * be `application/json`, not coded (no `Content-Encoding` but identity), and
 * at most 1 MiB, which is enforced while reading, so an oversized body is
 * never held in memory whole.
 */
export async function readJsonObject(
  request: Request,
): Promise<{ value: JsonObject } | { problem: Problem }> {
  const declaredLength = Number(request.headers.get("content-length") ?? "0");
  if (declaredLength > MAX_BODY_BYTES) return { problem: tooLarge };

  const bytes = request.body ? await readLimitedBytes(request.body, MAX_BODY_BYTES) : new Uint8Array();
  if (bytes === null) return { problem: tooLarge };
  // Buffer rather than TextDecoder: a leading byte-order mark stays, and JSON.parse refuses it.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  if (text.trim() === "") return { value: {} };

  const coding = contentCoding(request);
  if (coding !== "identity") {
    return {
      problem: {
        status: 415,
        code: "unsupported_media_type",
        detail: `The request body must not be coded (Content-Encoding: ${coding}); the only coding accepted is identity`,
        // RFC 9110 §15.5.16: the codings a request may use.
        headers: { "accept-encoding": "identity" },
      },
    };
  }
  const contentType = request.headers.get("content-type") ?? "";
  const mediaType = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (mediaType !== "application/json" && !/^application\/[a-z0-9.+-]+\+json$/.test(mediaType)) {
    return {
      problem: {
        status: 415,
        code: "unsupported_media_type",
        detail: "The request body must be JSON with Content-Type: application/json",
      },
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: { status: 400, code: "invalid_json", detail: "The request body is not valid JSON" } };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      problem: { status: 400, code: "invalid_json", detail: "The request body must be a JSON object" },
    };
  }
  if (nestsDeeperThan(value, MAX_BODY_DEPTH)) {
    return {
      problem: {
        status: 400,
        code: "invalid_json",
        detail: `The request body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep`,
      },
    };
  }
  return { value: value as JsonObject };
}

/**
 * The body's content coding: "identity" when none is named. Bodies are small
 * (1 MiB at most), and a coded body would need a second limit, on what it
 * decodes to, to keep a small upload from becoming a large one; so none is taken.
 */
function contentCoding(request: Request): string {
  const codings = (request.headers.get("content-encoding") ?? "")
    .split(",")
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== "" && coding !== "identity");
  return codings.length ? codings.join(", ") : "identity";
}

/** Walks the parsed body without recursion, so that the check itself cannot overflow the stack. */
function nestsDeeperThan(root: object, maxDepth: number): boolean {
  const pending: [value: unknown, depth: number][] = [[root, 1]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, depth] = next;
    if (typeof value !== "object" || value === null) continue;
    if (depth > maxDepth) return true;
    for (const child of Object.values(value)) pending.push([child, depth + 1]);
  }
  return false;
}
