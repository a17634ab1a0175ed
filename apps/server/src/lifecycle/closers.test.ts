import { describe, expect, it } from 'vitest';
import { Closers } from './closers.js';

describe('Closers', () => {
  it('runs the closers newest first, each once, and the rest after one that fails', async () => {
    const closers = new Closers();
    const ran: string[] = [];
    closers.add(() => void ran.push('redis'));
    closers.add(async () => {
      ran.push('worker');
      throw new Error('worker stop failed');
    });
    closers.add(() => void ran.push('server'));
    await expect(closers.close()).rejects.toThrow('worker stop failed');
    expect(ran).toEqual(['server', 'worker', 'redis']);
    await closers.close();
    expect(ran).toHaveLength(3);
  });

  it('closes what was started when a later start-up step fails, and rethrows that failure', async () => {
    const closers = new Closers();
    const ran: string[] = [];
    closers.add(() => void ran.push('services'));
    await expect(closers.orClose(() => Promise.reject(new Error('port in use')))).rejects.toThrow('port in use');
    expect(ran).toEqual(['services']);
    await expect(closers.orClose(() => Promise.resolve(42))).resolves.toBe(42);
  });
});
