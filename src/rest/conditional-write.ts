import type { Viewer } from "../auth/viewer.js";
import type { RestRoute } from "../contract/route.js";
import { parseTagCondition, strongMatch, versionOfTag } from "../http/entity-tag.js";
import type { WriteCondition } from "../schema/context.js";

/** The strong ETag a GET of `url` would answer with at the buyer's `version`. */
export type EntityTagFor = (url: URL, buyerId: string, version: bigint) => string;

/** A PATCH whose mutation checks `If-Match`: the route lists `precondition_failed` among its problems. */
export function acceptsIfMatch(route: RestRoute): boolean {
  return route.method === "PATCH" && route.problems?.precondition_failed !== undefined;
}

/**
 * A PATCH's If-Match (docs/design/decisions.md §9), for the mutation to check
 * against the record it writes; undefined for other methods. `*` holds for
 * any existing record. A tag names a version only when it is, byte for byte,
 * the tag a GET of this same path answers at the version it claims: a tag of
 * another URL (another record, a list, another buyer) or of another build,
 * and a weak, malformed or made-up one, names none; a list naming none never
 * holds (412). Whether a named version still shows the record as it is, the
 * mutation decides from the database.
 */
export function writeConditionFor(
  route: RestRoute,
  request: Request,
  url: URL,
  viewer: Viewer,
  entityTag: EntityTagFor,
): WriteCondition | undefined {
  if (!acceptsIfMatch(route)) return undefined;
  const condition = parseTagCondition(request.headers.get("if-match"));
  if (!condition) return { precondition: null, producedVersion: null };
  if (condition.any) return { precondition: { kind: "any" }, producedVersion: null };
  const target = readTarget(url);
  const versions = condition.tags.flatMap((tag) => {
    const version = versionOfTag(tag);
    return version !== null && strongMatch(tag, entityTag(target, viewer.buyerId, version)) ? [version] : [];
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
  entityTag: EntityTagFor,
): Response {
  if (!write || write.producedVersion === null || response.status !== 200) return response;
  response.headers.set("etag", entityTag(readTarget(url), viewer.buyerId, write.producedVersion));
  return response;
}

/** The URL a GET of the record a write names would have: its path, without the write's query. */
function readTarget(url: URL): URL {
  return new URL(url.pathname, url.origin);
}
