// How the contract's query parameters are read. The benchmark's hand-written
// peers (bench/peers) import these too, so that they read queries exactly as
// the adapter does.

/** `order_status[]=a&order_status[]=b`, `order_status=a` and `order_status=a,b` all mean the same. */
export function listParameter(query: URLSearchParams, name: string): string[] | undefined {
  const values = [...query.getAll(`${name}[]`), ...query.getAll(name)]
    .flatMap((value) => value.split(","))
    .map((value) => value.trim())
    .filter((value) => value !== "");
  return values.length > 0 ? values : undefined;
}

/** A whole number stays a number; anything else goes on as text so that coercion reports it. */
function integerParameter(query: URLSearchParams, name: string): number | string | null {
  const raw = query.get(name);
  if (raw === null) return null;
  return /^\d{1,15}$/.test(raw) ? Number(raw) : raw;
}

/**
 * How a query parameter is read, from the type it feeds: a list reads
 * `name[]=a&name[]=b`, `name=a` and `name=a,b` alike (documented as `name[]`);
 * an `Int` keeps a whole number a number (anything else goes on as text, so
 * coercion reports it); anything else is text as given.
 */
export type QueryForm = "text" | "integer" | "list";

export function readQueryParameter(query: URLSearchParams, name: string, form: QueryForm = "text"): unknown {
  if (form === "list") return listParameter(query, name);
  if (form === "integer") return integerParameter(query, name);
  return query.get(name);
}
