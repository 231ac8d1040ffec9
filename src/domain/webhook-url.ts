// Which URLs a webhook may be sent to. A server that posts to URLs its
// clients choose must not become their way into our own network (SSRF): the
// URL is checked when an endpoint is saved, and every address its host
// resolves to is checked again when a delivery connects, since DNS can change.
// The rules on a URL and an address are here; the lookups that apply them are
// in src/services/webhook-url-check.ts.
import ipaddr from "ipaddr.js";

export interface WebhookUrlPolicy {
  allowHttp: boolean;
  allowPrivateNetworks: boolean;
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/** U+0000 to U+001F and U+007F. */
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Why an address is refused, or null when it is an ordinary public unicast
 * address. ipaddr.js names the special ranges (loopback, private, linkLocal,
 * carrierGradeNat, uniqueLocal, …); only `unicast` is public. An IPv4-mapped
 * IPv6 address is judged as the IPv4 address it carries. The other IPv6 forms
 * that carry an IPv4 address are refused whatever they carry, named by the
 * carried address's range when that is not public.
 */
export function nonPublicRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return "invalid";
  const parsed = ipaddr.process(address);
  if (parsed instanceof ipaddr.IPv6) {
    const carried = carriedIPv4(parsed);
    if (carried) {
      const carriedRange = carried.ipv4.range();
      return carriedRange === "unicast" ? carried.form : carriedRange;
    }
  }
  const range = parsed.range();
  return range === "unicast" ? null : range;
}

/**
 * The IPv4 address an IPv6 address carries in its last two 16-bit groups (in
 * the second and third for 6to4), by the form that puts it there: IPv4-compatible
 * (`::a.b.c.d`, deprecated; `::` and `::1` are not), SIIT (`::ffff:0:a.b.c.d`),
 * NAT64 (`64:ff9b::a.b.c.d`) and 6to4 (`2002:aabb:ccdd::`). Null for any other.
 */
function carriedIPv4(address: ipaddr.IPv6): { form: string; ipv4: ipaddr.IPv4 } | null {
  const groups = address.parts;
  const fromGroups = (high: number, low: number) =>
    new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const last = () => fromGroups(g6, g7);
  const zeroUpTo = (end: number) => groups.slice(0, end).every((group) => group === 0);
  if (zeroUpTo(6) && (g6 !== 0 || g7 > 1)) return { form: "ipv4Compatible", ipv4: last() };
  if (zeroUpTo(4) && g4 === 0xffff && g5 === 0) return { form: "rfc6145", ipv4: last() };
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return { form: "rfc6052", ipv4: last() };
  if (g0 === 0x2002) return { form: "6to4", ipv4: fromGroups(g1, g2) };
  return null;
}

/** What is wrong with a URL before any DNS is asked, or null. */
export function urlProblem(text: string, policy: WebhookUrlPolicy): string | null {
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
  // PostgreSQL text cannot hold U+0000, and the URL parser drops or escapes the other control
  // characters: the URL kept must be the URL posted to.
  if (hasControlCharacter(text)) return "must not contain a control character (U+0000 to U+001F, U+007F)";
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return "must be an absolute URL such as https://example.com/webhooks";
  }
  if (url.protocol !== "https:" && !(policy.allowHttp && url.protocol === "http:")) {
    return policy.allowHttp ? "must be an http or https URL" : "must be an https URL";
  }
  if (url.username !== "" || url.password !== "") return "must not contain a user name or password";
  if (url.hash !== "") return "must not contain a fragment (#…)";
  const host = hostOf(url);
  if (host === "") return "must name a host";
  if (policy.allowPrivateNetworks) return null;
  if (host === "localhost" || host.endsWith(".localhost")) return privateMessage(host, "loopback");
  if (ipaddr.isValid(host)) {
    const range = nonPublicRange(host);
    if (range) return privateMessage(host, range);
  }
  return null;
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

export function privateMessage(host: string, range: string): string {
  return `must not point at a private or reserved address (${host} is ${range}); set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow it`;
}
