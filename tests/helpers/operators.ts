import type { TestServer } from './server.js';

/**
 * Extra platform admins with keys, handed out in turn. api_admin_write allows 20 calls per minute per user;
 * suites that make more calls than that spread them over several users instead of waiting out the window.
 */
export async function operatorKeys(server: TestServer, platformId: string, count = 5): Promise<() => string> {
  const ids = await server.seed({
    users: Array.from({ length: count }, (_, i) => ({
      ref: `op${i}`,
      platform: platformId,
      email: `operator${i}@${platformId}.example.com`,
      name: `Operator ${i}`,
      role: 'admin' as const,
      platformAccess: true,
      permissions: ['platform:manage'],
      apiKey: true,
    })),
  });
  const keys = Object.values(ids.users!).map((user) => user.apiKey!);
  let next = 0;
  return () => keys[next++ % keys.length]!;
}
