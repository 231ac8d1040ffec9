import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import { readLimitedBytes } from "../http/limited-body.js";

function tooLarge(): GraphQLError {
  return new GraphQLError("Request body too large", {
    extensions: { http: { status: 413 }, code: "REQUEST_ENTITY_TOO_LARGE" },
  });
}

function invalidContentLength(): GraphQLError {
  return new GraphQLError("Content-Length header is invalid.", {
    extensions: { http: { status: 400 }, code: "BAD_REQUEST" },
  });
}

/** Only a single non-negative integer is a Content-Length; anything else (a smuggling attempt's list) is refused. */
const CONTENT_LENGTH = /^\d+$/;

/**
 * Yoga's `maxRequestBodySize`, with the same answers: a declared length over
 * the limit is refused before the body is read, and a body that passes it
 * while read. The body is read into one buffer for the request parser
 * rather than piped through a transform stream, which cost each request more
 * than the rest of its parsing. Last among the plugins that choose or wrap a
 * request parser, so that it wraps whichever was chosen.
 */
export function bodyLimitPlugin(maxBytes: number): Plugin {
  return {
    onRequestParse({ request, requestParser, setRequestParser, fetchAPI }) {
      const declared = request.headers.get("content-length");
      if (declared !== null) {
        if (!CONTENT_LENGTH.test(declared)) throw invalidContentLength();
        if (Number(declared) > maxBytes) throw tooLarge();
      }
      if (!requestParser || !request.body) return;
      const parse = requestParser;
      setRequestParser(async (sent) => {
        let body: BodyInit | null = null;
        if (sent.body) {
          const read = await readLimitedBytes(sent.body, maxBytes).catch(
            // The body broke off (a bad chunk, the client gone): the parser meets that failure
            // as if it read the body itself, and answers it as it answers any unreadable body.
            (error: unknown) =>
              new fetchAPI.ReadableStream<Uint8Array>({ start: (controller) => controller.error(error) }),
          );
          if (read === null) throw tooLarge();
          body = read;
        }
        const init: RequestInit & { duplex: "half" } = {
          method: sent.method,
          headers: sent.headers,
          signal: sent.signal,
          body,
          duplex: "half",
        };
        return parse(new fetchAPI.Request(sent.url, init));
      });
    },
  };
}
