// Which URLs a webhook may be sent to. A server that posts to URLs its
// clients choose must not become their way into our own network (SSRF): the
// URL is checked when an endpoint is saved, and every address its host
// resolves to is checked again when a delivery connects, since DNS can change.
import { type LookupAddress, lookup } from "node:dns";
import ipaddr from "ipaddr.js";

export interface WebhookUrlPolicy {
  allowHttp: boolean;
  allowPrivateNetworks: boolean;
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * Why an address is refused, or null when it is an ordinary public unicast
 * address. ipaddr.js names the special ranges (loopback, private, linkLocal,
 * carrierGradeNat, uniqueLocal, …); only `unicast` is public. An IPv4-mapped
 * IPv6 address is judged as the IPv4 address it carries.
 */
export function nonPublicRange(address: string): string | null {
  if (!ipaddr.isValid(address)) return "invalid";
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  return range === "unicast" ? null : range;
}

/** What is wrong with a URL before any DNS is asked, or null. */
export function urlProblem(text: string, policy: WebhookUrlPolicy): string | null {
  if (text.length > MAX_WEBHOOK_URL_LENGTH) return `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`;
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

function privateMessage(host: string, range: string): string {
  return `must not point at a private or reserved address (${host} is ${range}); set WEBHOOK_ALLOW_PRIVATE_NETWORKS=true to allow it`;
}

type LookupAll = (hostname: string) => Promise<LookupAddress[]>;

const lookupAll: LookupAll = (hostname) =>
  new Promise((resolve, reject) => {
    lookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    );
  });

/**
 * The full check when an endpoint is saved: the URL itself, then every
 * address its host resolves to. Null when it may be used.
 */
export async function checkWebhookUrl(
  text: string,
  policy: WebhookUrlPolicy,
  resolve: LookupAll = lookupAll,
): Promise<string | null> {
  const problem = urlProblem(text, policy);
  if (problem || policy.allowPrivateNetworks) return problem;
  const host = hostOf(new URL(text));
  if (ipaddr.isValid(host)) return null;
  let addresses: LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return `must name a host that resolves (${host} does not)`;
  }
  for (const { address } of addresses) {
    const range = nonPublicRange(address);
    if (range) return privateMessage(`${host} → ${address}`, range);
  }
  return null;
}

/** The error a delivery's connection fails with when its host resolves to a refused address. */
export class RefusedAddressError extends Error {
  override readonly name = "RefusedAddressError";
  readonly code = "EWEBHOOKREFUSEDADDRESS";
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for node:http(s) that refuses non-public addresses, so the
 * address checked is the address connected to (no gap for DNS rebinding).
 */
export function guardedLookup(policy: WebhookUrlPolicy) {
  return (hostname: string, options: { all?: boolean }, callback: LookupCallback): void => {
    lookup(hostname, { all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (!policy.allowPrivateNetworks) {
        for (const { address } of addresses) {
          const range = nonPublicRange(address);
          if (range)
            return callback(new RefusedAddressError(`${hostname} resolves to ${address} (${range})`), []);
        }
      }
      const [first] = addresses;
      if (options.all) return callback(null, addresses);
      if (!first) return callback(new RefusedAddressError(`${hostname} resolves to no address`), []);
      callback(null, first.address, first.family);
    });
  };
}
