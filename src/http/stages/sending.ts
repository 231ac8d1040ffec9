import { Response as ServedResponse } from "@whatwg-node/server";
import { EXPENSIVE_RETRY_AFTER_SECONDS, type ExpensiveWork } from "../expensive-work.js";
import { problemResponse } from "../problem.js";
import type { WhenSent } from "../response-cache.js";
import type { Stage } from "./exchange.js";

/** From this size up, an answer in text is sent as a stream of parts (see `countSending`). */
const LARGE_TEXT_BYTES = 64 * 1024;

/** Characters of text turned into bytes at a time: one part on its way holds about as many bytes. */
const PART_CHARACTERS = 64 * 1024;

/**
 * Counts the bytes of every answer to an API key, as they go on the wire,
 * until it has been sent (src/http/expensive-work.ts), and says when the
 * answer has been made (`Exchange.made`). Outside compression, so that the
 * coded bytes are the ones counted. A large answer still in text is sent as
 * a stream of parts, each turned into bytes when the socket has taken the
 * last: a slow reader holds the answer's text once and a part of its bytes,
 * not its bytes whole as well (node:http would copy a text it cannot write
 * at once, and keep the copy until the last byte has gone).
 */
export function countSending(expensiveWork: ExpensiveWork): Stage {
  return async (exchange, next) => {
    try {
      let response = await next(exchange);
      const apiKeyId = exchange.admission?.viewer.apiKeyId;
      const length = Number(response.headers.get("content-length"));
      if (!(length > 0) || exchange.request.method === "HEAD") return response;
      // Only node:http's own response reads a stream as the socket drains.
      if (exchange.whenSent && length >= LARGE_TEXT_BYTES && inText(response)) {
        const { status, statusText, headers } = response;
        response = new ServedResponse(textInParts(await response.text(), exchange.whenSent), {
          status,
          statusText,
          headers,
        });
      }
      if (apiKeyId && exchange.whenSent) expensiveWork.sending(apiKeyId, length, exchange.whenSent);
      return response;
    } finally {
      exchange.made();
    }
  };
}

/**
 * The text as a stream of bytes made a part at a time, when the one before
 * has been taken. Once the answer has gone (or its client has), the text is
 * let go even if the stream is never read to its end.
 */
function textInParts(whole: string, whenSent: WhenSent | undefined): ReadableStream<Uint8Array> {
  let text: string | null = whole;
  let offset = 0;
  whenSent?.(() => {
    text = null;
  });
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (text === null || offset >= text.length) {
          text = null;
          controller.close();
          return;
        }
        let end = Math.min(offset + PART_CHARACTERS, text.length);
        // A surrogate pair stays in one part, so that the parts' bytes are the whole text's.
        if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end += 1;
        controller.enqueue(Buffer.from(text.slice(offset, end), "utf8"));
        offset = end;
      },
      cancel() {
        text = null;
      },
    },
    { highWaterMark: 0 },
  );
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Whether @whatwg-node's Response holds its body as text (how it tells
 * node:http's writes apart itself); bytes, such as the response cache's
 * shared ones, are sent as they are.
 */
function inText(response: Response): boolean {
  return (response as { bodyType?: unknown }).bodyType === "String";
}

/** A key whose answers still on their way have reached the bound gets 429 until some have gone. */
export function sendingLimit(expensiveWork: ExpensiveWork): Stage {
  return async (exchange, next) => {
    const apiKeyId = exchange.admission?.viewer.apiKeyId;
    if (!apiKeyId || !expensiveWork.sendingTooMuch(apiKeyId)) return next(exchange);
    return problemResponse(
      {
        status: 429,
        code: "rate_limited",
        detail: `More than ${expensiveWork.maxSendingBytesPerKey} bytes of answers to this API key are still being sent; read them, then retry after ${EXPENSIVE_RETRY_AFTER_SECONDS} s`,
        headers: { "retry-after": String(EXPENSIVE_RETRY_AFTER_SECONDS) },
      },
      exchange.requestId,
    );
  };
}
