// The DNS side of the webhook URL rules (src/domain/webhook-url.ts): every
// address a host resolves to is checked when an endpoint is saved, and again
// when a delivery connects, since DNS can change.
import { type LookupAddress, lookup } from "node:dns";
import ipaddr from "ipaddr.js";
import {
  hostOf,
  nonPublicRange,
  privateMessage,
  urlProblem,
  type WebhookUrlPolicy,
} from "../domain/webhook-url.js";

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
