import { DOCS_PATH } from "../api-reference.js";
import { problemResponse } from "../problem.js";
import type { Endpoint } from "./exchange.js";

/** Where a 404 points a client that guessed a path. */
export const HELP_LINK = `<${DOCS_PATH}>; rel="help"`;

export function notFoundResponse(requestId: string): Response {
  return problemResponse(
    {
      status: 404,
      code: "not_found",
      detail: `No such resource; the API reference is at ${DOCS_PATH}`,
      headers: { link: HELP_LINK },
    },
    requestId,
  );
}

/** Where the router sends a path no route has, outside the REST API (whose own 404 names the path). */
export const notFound: Endpoint = {
  admits: false,
  versionedGet: false,
  handle: async ({ requestId }) => notFoundResponse(requestId),
};
