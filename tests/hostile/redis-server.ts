import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../helpers/ports.js';

export interface RedisProcess {
  url: string;
  port: number;
  /** SIGKILL: no shutdown, connections cut. */
  kill(): Promise<void>;
}

/** A redis-server of the test's own (no persistence) on a free port, or `port` to come back where it was. */
export async function startRedisServer(port?: number): Promise<RedisProcess> {
  const listenOn = port ?? (await freePort());
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(listenOn), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 10_000);
    child.once('error', reject);
    child.stdout!.on('data', (chunk) => {
      output += chunk;
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    url: `redis://127.0.0.1:${listenOn}`,
    port: listenOn,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}
