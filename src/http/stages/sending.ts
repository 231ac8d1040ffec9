import { Response as ServedResponse } from "@whatwg-node/server";
import { EXPENSIVE_RETRY_AFTER_SECONDS, type ExpensiveWork } from "../expensive-work.js";
import { problemResponse } from "../problem.js";
import type { Stage } from "./exchange.js";

/** From this size up, an answer's text is turned into bytes before it is sent (see `countSending`). */
const LARGE_TEXT_BYTES = 64 * 1024;

/**
 * Counts the bytes of every answer to an API key, as they go on the wire,
 * until it has been sent (src/http/expensive-work.ts). Outside compression,
 * so that the coded bytes are the ones counted. A large answer still in
 * text is sent as bytes: node:http copies a text it cannot write at once
 * into bytes of its own, and the fetch adapter keeps the text until the last
 * of them has gone, so a slow reader would hold the answer twice.
 */
export function countSending(expensiveWork: ExpensiveWork): Stage {
  return async (exchange, next) => {
    let response = await next(exchange);
    const apiKeyId = exchange.admission?.viewer.apiKeyId;
    const length = Number(response.headers.get("content-length"));
    if (!apiKeyId || !exchange.whenSent || !(length > 0) || exchange.request.method === "HEAD")
      return response;
    if (length >= LARGE_TEXT_BYTES && inText(response)) {
      const { status, statusText, headers } = response;
      // @whatwg-node's Response hands its bytes to node:http as they are, without a copy.
      response = new ServedResponse(new Uint8Array(await response.arrayBuffer()), {
        status,
        statusText,
        headers,
      });
    }
    expensiveWork.sending(apiKeyId, length, exchange.whenSent);
    return response;
  };
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
