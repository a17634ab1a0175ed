import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { get, createServer } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import {
  checkDestination,
  DestinationConnection,
  forbiddenAddressReason,
  pinnedLookup,
  REFUSED_RANGES,
  urlProblem,
  type ResolveAll,
} from './destination.js';

const STRICT = { allowLocal: false };
const LOCAL = { allowLocal: true };
const resolvesTo =
  (...addresses: string[]): ResolveAll =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('forbiddenAddressReason', () => {
  it.each([
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['169.254.169.254', 'linkLocal'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
  ])('refuses %s (%s)', (address, range) => {
    expect(forbiddenAddressReason(address)).toContain(`is a ${range} address`);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'allows the public address %s',
    (address) => {
      expect(forbiddenAddressReason(address)).toBeUndefined();
    },
  );
});

/** The first, middle (top host bit set) and last address of a CIDR range. */
function edgesOf(cidr: string): [string, string, string] {
  const [network, bits] = ipaddr.parseCIDR(cidr);
  const bytes = network.toByteArray();
  const hostBitsIn = (i: number) => Math.min(8, Math.max(0, (i + 1) * 8 - bits));
  const last = bytes.map((byte, i) => byte | ((1 << hostBitsIn(i)) - 1));
  const middle = bytes.map((byte, i) =>
    i === Math.floor(bits / 8) && bits < bytes.length * 8 ? byte | (0x80 >> (bits % 8)) : byte,
  );
  return [network, ipaddr.fromByteArray(middle), ipaddr.fromByteArray(last)].map((a) => a.toNormalizedString()) as [
    string,
    string,
    string,
  ];
}

describe('REFUSED_RANGES (issue #22: one list, a test per range)', () => {
  it.each(REFUSED_RANGES)('refuses the first and last address of $cidr ($name)', ({ cidr, name }) => {
    for (const address of edgesOf(cidr)) expect(forbiddenAddressReason(address), address).toMatch(/ is a \w+ address$/);
    // Named by the range itself (its edges may belong to a narrower range listed before it, like :: or broadcast).
    const [, middle] = edgesOf(cidr);
    expect(forbiddenAddressReason(middle)).toBe(`${middle} is a ${name} address`);
  });

  it.each(REFUSED_RANGES.filter(({ cidr }) => !cidr.includes(':')))(
    'refuses $cidr written as IPv4-mapped IPv6 too',
    ({ cidr }) => {
      const [first] = edgesOf(cidr);
      expect(forbiddenAddressReason(`::ffff:${first}`)).toMatch(/ is a \w+ address$/);
    },
  );

  it('refuses IPv4-compatible IPv6 (::/96), e.g. [::7f00:1], which some stacks route to 127.0.0.1', () => {
    expect(forbiddenAddressReason('::7f00:1')).toBe('::7f00:1 is a ipv4Compatible address');
    expect(forbiddenAddressReason('::a00:1')).toBe('::a00:1 is a ipv4Compatible address');
  });

  it('covers every non-unicast range ipaddr.js knows, for both families', () => {
    type Ranges = Record<string, [ipaddr.IPv4 | ipaddr.IPv6, number] | [ipaddr.IPv4 | ipaddr.IPv6, number][]>;
    // Library seam: ipaddr.js keeps its ranges on the prototype, where its type declarations do not list them.
    const known = [ipaddr.IPv4, ipaddr.IPv6].flatMap((family) =>
      Object.entries((family.prototype as unknown as { SpecialRanges: Ranges }).SpecialRanges).flatMap(
        ([name, ranges]) =>
          (Array.isArray(ranges[0])
            ? (ranges as [ipaddr.IPv4 | ipaddr.IPv6, number][])
            : [ranges as [ipaddr.IPv4, number]]
          ).map(([network, bits]) => ({ name, cidr: `${network.toString()}/${bits}` })),
      ),
    );
    expect(known.length).toBeGreaterThan(30);
    // IPv4-mapped addresses are unwrapped, so their range is the IPv4 address's own.
    for (const { name, cidr } of known.filter(({ name }) => name !== 'ipv4Mapped')) {
      for (const address of edgesOf(cidr))
        expect(forbiddenAddressReason(address), `${name} ${cidr}: ${address}`).toBeDefined();
    }
  });
});

describe('urlProblem', () => {
  it('wants https unless ALLOW_HTTP_WEBHOOKS, and then http only to localhost or 127.0.0.1', () => {
    expect(urlProblem(new URL('https://hooks.example.com/x'), STRICT)).toBeUndefined();
    expect(urlProblem(new URL('http://hooks.example.com/x'), STRICT)).toBe('http:// is not allowed; use https://');
    expect(urlProblem(new URL('http://127.0.0.1:9/x'), STRICT)).toBe('http:// is not allowed; use https://');
    expect(urlProblem(new URL('http://localhost:9/x'), LOCAL)).toBeUndefined();
    expect(urlProblem(new URL('http://127.0.0.1:9/x'), LOCAL)).toBeUndefined();
    expect(urlProblem(new URL('http://10.0.0.1/x'), LOCAL)).toBe('http:// is only allowed to localhost or 127.0.0.1');
    expect(urlProblem(new URL('ftp://hooks.example.com/x'), LOCAL)).toBe('ftp: is not allowed; use https://');
  });
});

describe('checkDestination', () => {
  it('refuses a hostname that resolves to a loopback address (localhost from /etc/hosts)', async () => {
    const result = await checkDestination('https://localhost:8443/hook', STRICT);
    expect(result).toMatchObject({
      allowed: false,
      reason: expect.stringMatching(/^localhost resolves to a non-public address \(.*loopback/),
    });
  });

  it('refuses a hostname if any of its addresses is private', async () => {
    const result = await checkDestination(
      'https://hooks.example.com/x',
      STRICT,
      resolvesTo('93.184.216.34', '10.0.0.5'),
    );
    expect(result).toEqual({
      allowed: false,
      reason: 'hooks.example.com resolves to a non-public address (10.0.0.5 is a private address)',
    });
  });

  it('refuses IP literals of forbidden ranges, IPv6 in brackets too', async () => {
    expect(await checkDestination('https://169.254.169.254/latest/meta-data', STRICT)).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('linkLocal'),
    });
    expect(await checkDestination('https://[::1]:8443/x', STRICT)).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('::1 is a loopback address'),
    });
  });

  it('allows a public destination and returns the addresses it checked', async () => {
    const result = await checkDestination('https://hooks.example.com/x', STRICT, resolvesTo('93.184.216.34'));
    expect(result).toMatchObject({ allowed: true, addresses: [{ address: '93.184.216.34', family: 4 }] });
  });

  it('allows local addresses when ALLOW_HTTP_WEBHOOKS is on', async () => {
    expect(await checkDestination('http://localhost:9/x', LOCAL)).toMatchObject({ allowed: true });
    expect(await checkDestination('https://10.0.0.5/x', LOCAL, resolvesTo('10.0.0.5'))).toMatchObject({
      allowed: true,
    });
  });

  it('rejects what is not a URL', async () => {
    expect(await checkDestination('not a url', STRICT)).toEqual({ allowed: false, reason: 'not a valid URL' });
  });
});

describe('pinnedLookup', () => {
  it('a connection connects to the address it checked, not to what the name resolves to later', async () => {
    // Only 127.0.0.2 listens: the system resolver's answer for localhost (127.0.0.1, ::1) would be refused.
    const server = createServer((_req, res) => res.end('pinned'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const connection = new DestinationConnection(LOCAL, resolvesTo('127.0.0.2'));
      expect(await connection.fetch(`http://localhost:${port}/`, { method: 'POST' })).toEqual({
        status: 200,
        text: 'pinned',
      });
      // A second attempt reuses the kept-alive connection to the same checked address.
      expect(await connection.fetch(`http://localhost:${port}/`, { method: 'POST' })).toEqual({
        status: 200,
        text: 'pinned',
      });
      await connection.close();
    } finally {
      server.close();
    }
  });

  it('connects to the checked address whatever DNS would say about the name', async () => {
    const server = createServer((_req, res) => res.end('pinned'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const body = await new Promise<string>((resolve, reject) => {
        get(
          { host: 'rebound.invalid', port, path: '/', lookup: pinnedLookup([{ address: '127.0.0.1', family: 4 }]) },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve(text));
          },
        ).on('error', reject);
      });
      expect(body).toBe('pinned');
    } finally {
      server.close();
    }
  });

  it('answers only with checked addresses of the requested family', () => {
    const lookup = pinnedLookup([{ address: '93.184.216.34', family: 4 }]);
    const answers: unknown[] = [];
    lookup('x', { all: true }, (error, address) => answers.push([error, address]));
    lookup('x', { family: 6 }, (error) => answers.push((error as NodeJS.ErrnoException).code));
    expect(answers).toEqual([[null, [{ address: '93.184.216.34', family: 4 }]], 'ENOTFOUND']);
  });
});

/**
 * A port where a TCP connect hangs, as with a host that drops packets: a listener in a stopped process, its accept
 * queue (backlog 1) filled, so the kernel answers no further handshake.
 */
async function unansweredPort(): Promise<{ port: number; close(): void }> {
  const listener = spawn(
    process.execPath,
    [
      '-e',
      "require('net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, " +
        'function () { console.log(this.address().port) })',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const port = Number(String(await once(listener.stdout!, 'data')));
  listener.kill('SIGSTOP');
  const queued = Array.from({ length: 4 }, () => connect(port, '127.0.0.1').on('error', () => undefined));
  await Promise.all(queued.slice(0, 2).map((socket) => once(socket, 'connect')));
  return {
    port,
    close() {
      for (const socket of queued) socket.destroy();
      listener.kill('SIGKILL');
    },
  };
}

describe('a destination connection to a host that never completes the connection', () => {
  it('gives up connecting after its connect timeout, well before the whole request’s', async () => {
    const { port, close } = await unansweredPort();
    try {
      const connection = new DestinationConnection(LOCAL);
      const attempt = connection.fetch(`http://127.0.0.1:${port}/hooks`, {
        method: 'POST',
        body: '{}',
        signal: AbortSignal.timeout(8_000),
      });
      const failure = await attempt.then(
        () => undefined,
        (error: unknown) => error as Error & { cause?: { code?: string } },
      );
      expect(failure?.cause?.code).toBe('UND_ERR_CONNECT_TIMEOUT');
    } finally {
      close();
    }
  });
});
