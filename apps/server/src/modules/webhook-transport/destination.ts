import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch, type RequestInit } from 'undici';

/**
 * Server-side request forgery guard for webhook URLs: a tenant chooses the URL, our server makes the request,
 * so a URL must not reach the service's own network (metadata endpoints, databases, admin ports).
 *
 * Addresses are parsed with ipaddr.js (Express's proxy-addr uses it), whose `process()` unwraps IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`) to the IPv4 address it really reaches; the refused ranges are REFUSED_RANGES below.
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

/**
 * Every range a webhook may not reach, in one place: IANA's IPv4 and IPv6 special-purpose registries (private,
 * shared, loopback, link-local, documentation, benchmarking, translation and tunnelling prefixes, multicast,
 * reserved). The name is ipaddr.js's where it has one. A test checks each range, and that every non-unicast range
 * ipaddr.js knows lies inside one of these. IPv4-mapped IPv6 never gets here: it is unwrapped to its IPv4 address.
 * `::/96`, the deprecated IPv4-compatible form (`::7f00:1` is 127.0.0.1 to some stacks), is refused as a whole.
 */
export const REFUSED_RANGES: readonly { cidr: string; name: string }[] = [
  { cidr: '0.0.0.0/8', name: 'unspecified' },
  { cidr: '10.0.0.0/8', name: 'private' },
  { cidr: '100.64.0.0/10', name: 'carrierGradeNat' },
  { cidr: '127.0.0.0/8', name: 'loopback' },
  { cidr: '169.254.0.0/16', name: 'linkLocal' },
  { cidr: '172.16.0.0/12', name: 'private' },
  { cidr: '192.0.0.0/24', name: 'reserved' },
  { cidr: '192.0.2.0/24', name: 'reserved' },
  { cidr: '192.31.196.0/24', name: 'as112' },
  { cidr: '192.52.193.0/24', name: 'amt' },
  { cidr: '192.88.99.0/24', name: 'reserved' },
  { cidr: '192.168.0.0/16', name: 'private' },
  { cidr: '192.175.48.0/24', name: 'as112' },
  { cidr: '198.18.0.0/15', name: 'reserved' },
  { cidr: '198.51.100.0/24', name: 'reserved' },
  { cidr: '203.0.113.0/24', name: 'reserved' },
  { cidr: '224.0.0.0/4', name: 'multicast' },
  { cidr: '255.255.255.255/32', name: 'broadcast' },
  { cidr: '240.0.0.0/4', name: 'reserved' },
  { cidr: '::/128', name: 'unspecified' },
  { cidr: '::1/128', name: 'loopback' },
  { cidr: '::/96', name: 'ipv4Compatible' },
  { cidr: '::ffff:0:0:0/96', name: 'rfc6145' },
  { cidr: '64:ff9b::/96', name: 'rfc6052' },
  { cidr: '64:ff9b:1::/48', name: 'rfc6052' },
  { cidr: '100::/64', name: 'discard' },
  { cidr: '2001::/23', name: 'reserved' },
  { cidr: '2001:db8::/32', name: 'reserved' },
  { cidr: '2002::/16', name: '6to4' },
  { cidr: '2620:4f:8000::/48', name: 'as112v6' },
  { cidr: '3fff::/20', name: 'reserved' },
  { cidr: '5f00::/16', name: 'segmentRouting' },
  { cidr: 'fc00::/7', name: 'uniqueLocal' },
  { cidr: 'fe80::/10', name: 'linkLocal' },
  { cidr: 'fec0::/10', name: 'deprecatedSiteLocal' },
  { cidr: 'ff00::/8', name: 'multicast' },
];
const REFUSED = REFUSED_RANGES.map(({ cidr, name }) => ({ range: ipaddr.parseCIDR(cidr), name }));

/** Why an address may not be a webhook destination, or undefined when it is a public unicast address. */
export function forbiddenAddressReason(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.process(address);
  const refused = REFUSED.find(({ range }) => range[0].kind() === parsed.kind() && parsed.match(range));
  return refused && `${address} is a ${refused.name} address`;
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

/**
 * How long the connection (TCP and TLS) may take, within the whole request's timeout: a host that drops packets
 * holds a delivery slot for this long, not for the whole request's time.
 */
const CONNECT_TIMEOUT_MS = 3000;

/** A destination that the policy refuses: retrying cannot help, so the delivery fails for good. */
export class DestinationRefusedError extends Error {}

/**
 * One endpoint's connections. Each `fetch` checks the URL again (DNS may have changed since the last attempt) and
 * connects only to the addresses it checked; while they stay the same, the kept-alive connections of earlier attempts
 * are reused, so a busy endpoint is not paid a new connection (and TLS handshake) per delivery. undici's Agent takes
 * the pinned `lookup`; Node's built-in fetch has no such option. Throws DestinationRefusedError for a refused URL.
 */
export class DestinationConnection {
  private agent: Agent | undefined;
  private pinned = '';

  constructor(
    private readonly policy: DestinationPolicy,
    private readonly resolve: ResolveAll = systemResolver,
  ) {}

  async fetch(rawUrl: string, init: RequestInit): Promise<{ status: number; text: string }> {
    const destination = await checkDestination(rawUrl, this.policy, this.resolve);
    if (!destination.allowed) throw new DestinationRefusedError(`destination refused: ${destination.reason}`);
    const pinned = destination.addresses.map((a) => `${a.family}/${a.address}`).join(' ');
    if (!this.agent || pinned !== this.pinned) {
      // Requests still running on the old one finish there.
      void this.agent?.close();
      this.agent = new Agent({ connect: { lookup: pinnedLookup(destination.addresses), timeout: CONNECT_TIMEOUT_MS } });
      this.pinned = pinned;
    }
    const response = await fetch(destination.url, { ...init, dispatcher: this.agent });
    return { status: response.status, text: await response.text().catch(() => '') };
  }

  async close(): Promise<void> {
    await this.agent?.close();
    this.agent = undefined;
  }
}
