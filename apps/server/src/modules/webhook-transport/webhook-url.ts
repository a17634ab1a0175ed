import { ValidationError } from '../../kit/errors.js';
import { checkDestination, systemResolver, type DestinationPolicy, type ResolveAll } from './destination.js';

/** A resolver that answers within `ms` or fails: a slow DNS server must not hold a request for its own timeouts. */
export function resolveWithin(resolve: ResolveAll, ms: number): ResolveAll {
  return (hostname) =>
    new Promise((resolved, rejected) => {
      const timer = setTimeout(() => rejected(new Error(`no DNS answer for ${hostname} within ${ms} ms`)), ms);
      resolve(hostname)
        .then(resolved, rejected)
        .finally(() => clearTimeout(timer));
    });
}

const DNS_TIMEOUT_MS = 3000;

/**
 * The server-side request forgery guard at create/update time, so a tenant learns at once that a URL will never be
 * delivered to: the scheme rules, and every address the host resolves to now. A host that does not resolve (yet)
 * is accepted: there is nothing to refuse, and every delivery attempt checks the destination again anyway.
 */
export async function assertWebhookUrl(
  url: string,
  policy: DestinationPolicy,
  resolve: ResolveAll = systemResolver,
): Promise<void> {
  const destination = await checkDestination(url, policy, resolveWithin(resolve, DNS_TIMEOUT_MS)).catch(
    () => undefined,
  );
  if (destination && !destination.allowed) throw ValidationError.field('url', destination.reason);
}
