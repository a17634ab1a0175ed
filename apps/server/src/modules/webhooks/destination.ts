import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch, type RequestInit } from 'undici';

/**
 * Server-side request forgery guard for webhook URLs: a tenant chooses the URL, our server makes the request,
 * so a URL must not reach the service's own network (metadata endpoints, databases, admin ports).
 *
 * Ranges are classified with ipaddr.js rather than hand-written CIDR lists: it is the maintained classifier
 * (Express's proxy-addr uses it), knows every special-purpose range of both families, and `process()` unwraps
 * IPv4-mapped IPv6 (`::ffff:127.0.0.1`) to the IPv4 address it really reaches. Only `unicast` (globally routable)
 * passes — an allowlist, so a range we did not think of (6to4, NAT64, benchmarking, reserved) is refused too.
 */

export interface DestinationPolicy {
  /** ALLOW_HTTP_WEBHOOKS: local development and tests may deliver to http://localhost or any address. */
  allowLocal: boolean;
}

/** Hostnames that may be reached over plain http when `allowLocal` is on (issue #12: localhost/127.0.0.1 only). */
const LOCAL_HTTP_HOSTS = new Set(['localhost', '127.0.0.1']);

/** The resolver, injectable so tests can resolve a name to any address. */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolver: ResolveAll = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

export type Destination = { allowed: true; url: URL; addresses: LookupAddress[] } | { allowed: false; reason: string };

/** Why an address may not be a webhook destination, or undefined when it is a public unicast address. */
export function forbiddenAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const range = ipaddr.process(address).range();
  return range === 'unicast' ? undefined : `${address} is a ${range} address`;
}

/** The URL's own rules: scheme and, for plain http, the host. Undefined when the URL is acceptable. */
export function urlProblem(url: URL, policy: DestinationPolicy): string | undefined {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol !== 'http:') return `${url.protocol} is not allowed; use https://`;
  if (!policy.allowLocal) return 'http:// is not allowed; use https://';
  return LOCAL_HTTP_HOSTS.has(url.hostname) ? undefined : 'http:// is only allowed to localhost or 127.0.0.1';
}

/**
 * Checks a webhook URL and resolves its host. A host with several addresses is refused if any of them is
 * forbidden: the connection could pick any. DNS failures are thrown (a retry may succeed); refusals are not.
 */
export async function checkDestination(
  rawUrl: string,
  policy: DestinationPolicy,
  resolve: ResolveAll = systemResolver,
): Promise<Destination> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { allowed: false, reason: 'not a valid URL' };
  }
  const problem = urlProblem(url, policy);
  if (problem) return { allowed: false, reason: problem };
  // WHATWG URLs keep IPv6 literals in brackets; the resolver wants the bare address.
  const addresses = await resolve(url.hostname.replace(/^\[(.*)\]$/, '$1'));
  if (addresses.length === 0) throw new Error(`${url.hostname} has no addresses`);
  if (!policy.allowLocal) {
    const reasons = addresses.map((a) => forbiddenAddressReason(a.address)).filter((r) => r !== undefined);
    if (reasons.length)
      return { allowed: false, reason: `${url.hostname} resolves to a non-public address (${reasons.join(', ')})` };
  }
  return { allowed: true, url, addresses };
}

/**
 * A `lookup` for net/tls.connect that answers only with the addresses already checked, so a DNS answer that
 * changes between the check and the connection (DNS rebinding) cannot redirect the request. The hostname stays
 * in the URL, so TLS still verifies the certificate against it.
 */
export function pinnedLookup(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const matching = family ? addresses.filter((a) => a.family === family) : addresses;
    if (matching.length === 0) {
      const error = Object.assign(new Error('no checked address of the requested family'), { code: 'ENOTFOUND' });
      return callback(error, '', 0);
    }
    if (options.all) return callback(null, [...matching]);
    callback(null, matching[0]!.address, matching[0]!.family);
  };
}

/** A destination that the policy refuses: retrying cannot help, so the delivery fails for good. */
export class DestinationRefusedError extends Error {}

/**
 * POSTs (or whatever `init` says) to a checked destination and reads the reply. undici's Agent takes the pinned
 * `lookup`; Node's built-in fetch has no such option. Throws DestinationRefusedError for a refused URL.
 */
export async function fetchDestination(
  rawUrl: string,
  policy: DestinationPolicy,
  init: RequestInit,
  resolve: ResolveAll = systemResolver,
): Promise<{ status: number; text: string }> {
  const destination = await checkDestination(rawUrl, policy, resolve);
  if (!destination.allowed) throw new DestinationRefusedError(`destination refused: ${destination.reason}`);
  const dispatcher = new Agent({ connect: { lookup: pinnedLookup(destination.addresses) } });
  try {
    const response = await fetch(destination.url, { ...init, dispatcher });
    return { status: response.status, text: await response.text().catch(() => '') };
  } finally {
    await dispatcher.close();
  }
}
