import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, migratesOnStart, seedsDemo } from './config.js';

describe('loadConfig', () => {
  it('applies defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 3000, LOG_LEVEL: 'info', DELIVERY_RETRY_HOURS: 72, TRUST_PROXY: false });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SWITCHBOARD_DATA_DIR).toMatch(/\.data$/);
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ DATABASE_URL: '', PORT: '' }).PORT).toBe(3000);
  });

  it.each([
    [{ PORT: 'abc' }, 'Invalid configuration: PORT must be a number'],
    [{ PORT: '70000' }, 'Invalid configuration: PORT must be 0..65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'Invalid configuration: DATABASE_URL must start with postgres:// or postgresql://'],
    [{ REDIS_URL: 'nope' }, 'Invalid configuration: REDIS_URL must be a URL'],
    [
      { LOG_LEVEL: 'loud' },
      'Invalid configuration: LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ],
    [{ NODE_ENV: 'production' }, 'Invalid configuration: DATABASE_URL is required when NODE_ENV=production'],
    [{ MIGRATE_ON_START: 'yes' }, 'Invalid configuration: MIGRATE_ON_START must be true or false'],
    [
      { CORS_ORIGINS: 'https://a.example.com,nope' },
      'Invalid configuration: CORS_ORIGINS.1 must be comma-separated origins',
    ],
  ])('stops on %o with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('reads the deprecated DELIVERY_WORKER as JOB_WORKER unless JOB_WORKER is set', () => {
    expect(loadConfig({}).JOB_WORKER).toBe(true);
    expect(loadConfig({ DELIVERY_WORKER: 'false' })).toMatchObject({ JOB_WORKER: false, DELIVERY_WORKER: false });
    expect(loadConfig({ DELIVERY_WORKER: 'false', JOB_WORKER: 'true' }).JOB_WORKER).toBe(true);
    expect(() => loadConfig({ DELIVERY_WORKER: 'no' })).toThrow('DELIVERY_WORKER must be true or false');
  });

  it('migrates and seeds the demo only on the embedded default unless told', () => {
    const embedded = loadConfig({});
    const configured = loadConfig({ DATABASE_URL: 'postgres://db/app' });
    expect([migratesOnStart(embedded), seedsDemo(embedded)]).toEqual([true, true]);
    expect([migratesOnStart(configured), seedsDemo(configured)]).toEqual([false, false]);
    const asked = loadConfig({ DATABASE_URL: 'postgres://db/app', MIGRATE_ON_START: 'true', DEMO: 'true' });
    expect([migratesOnStart(asked), seedsDemo(asked)]).toEqual([true, true]);
    expect(seedsDemo(loadConfig({ DEMO: 'false' }))).toBe(false);
  });

  it('splits CORS_ORIGINS', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com, http://localhost:5173' }).CORS_ORIGINS).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
  });

  it('takes TRUST_PROXY as a hop count or proxy addresses, and refuses true (issue #22)', () => {
    const trust = (TRUST_PROXY: string) => loadConfig({ TRUST_PROXY }).TRUST_PROXY;
    expect(trust('false')).toBe(false);
    expect(trust('1')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, loopback')).toEqual(['10.0.0.0/8', 'loopback']);
    expect(trust('172.18.0.1,fd00::/8')).toEqual(['172.18.0.1', 'fd00::/8']);
    expect(() => trust('true')).toThrow(
      'Invalid configuration: TRUST_PROXY must be false, the number of proxies in front of the server (e.g. 1), ' +
        'or their addresses/CIDRs (e.g. 10.0.0.0/8, loopback); true would trust any X-Forwarded-For a client sends',
    );
    for (const bad of ['yes', '10.0.0.0/33', '10.0.0', 'loopback,nowhere', '-1'])
      expect(() => trust(bad), bad).toThrow(/^Invalid configuration: TRUST_PROXY must be false, the number of proxies/);
  });
});
