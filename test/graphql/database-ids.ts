import { isUuid } from "../../src/domain/uuid.js";

/**
 * The stored UUID behind an `id` a list answers: the id itself, or the UUID
 * inside a global ID (base64 of `<Type>:<uuid>`), so that list tests compare
 * rows with what they seeded whichever the type's `id` is.
 */
export function databaseId(id: string): string {
  if (isUuid(id)) return id;
  const decoded = Buffer.from(id, "base64").toString("utf8");
  const uuid = decoded.slice(decoded.indexOf(":") + 1);
  return isUuid(uuid) ? uuid : id;
}
