import type { Viewer } from "../auth/viewer.js";
import type { RestRoute } from "../contract/route.js";
import { parseTagCondition, versionOfTag } from "../http/entity-tag.js";
import type { WriteCondition } from "../schema/context.js";

/** The strong ETag a GET of `url` would answer with at the buyer's `version`. */
export type EntityTagFor = (url: URL, buyerId: string, version: bigint) => string;

/** A PATCH whose mutation checks `If-Match`: the route lists `precondition_failed` among its problems. */
export function acceptsIfMatch(route: RestRoute): boolean {
  return route.method === "PATCH" && route.problems?.precondition_failed !== undefined;
}

/**
 * A PATCH's If-Match (docs/decisions.md §9), for the mutation to check with
 * the record locked; undefined for other methods. `*` holds for any existing
 * record; only strong tags of ours name a version, so weak, foreign or
 * malformed tags leave a list that never holds (412).
 */
export function writeConditionFor(route: RestRoute, request: Request): WriteCondition | undefined {
  if (!acceptsIfMatch(route)) return undefined;
  const condition = parseTagCondition(request.headers.get("if-match"));
  if (!condition) return { precondition: null, producedVersion: null };
  if (condition.any) return { precondition: { kind: "any" }, producedVersion: null };
  const versions = condition.tags.flatMap((tag) => {
    const version = tag.weak ? null : versionOfTag(tag);
    return version === null ? [] : [version];
  });
  return { precondition: { kind: "versions", versions }, producedVersion: null };
}

/**
 * Gives a successful write the ETag a GET of the same path would now show,
 * so the client can send it as If-Match next time without reading again.
 */
export function withWrittenEntityTag(
  response: Response,
  write: WriteCondition | undefined,
  url: URL,
  viewer: Viewer,
  entityTag: EntityTagFor | undefined,
): Response {
  if (!write || write.producedVersion === null || !entityTag || response.status !== 200) return response;
  response.headers.set(
    "etag",
    entityTag(new URL(url.pathname, url.origin), viewer.buyerId, write.producedVersion),
  );
  return response;
}
