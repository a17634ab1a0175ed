import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generate } from 'selfsigned';
import type { TestProject } from 'vitest/node';
import { createLogger, startEmbeddedPostgres } from '@switchboard/server';
import { freePort } from './ports.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PostgreSQL server where each suite creates its own fresh database. */
    adminDatabaseUrl: string;
    /** A key and certificate for 127.0.0.1 that every test process trusts: tenants' own https servers. */
    localTls: { key: string; cert: string };
  }
}

/**
 * A self-signed certificate for 127.0.0.1 and localhost, trusted by the workers through NODE_EXTRA_CA_CERTS (Node
 * reads it when a process starts, and the workers are started after this, with this process's environment). The
 * server only fetches tenants' files over https, so a test serving one needs a certificate the server trusts.
 * Made with selfsigned (Node's WebCrypto): a fresh machine has Node, not necessarily openssl.
 */
async function trustLocalCertificate(project: TestProject): Promise<() => void> {
  const week = new Date(Date.now() + 7 * 24 * 3600 * 1000);
  const { private: key, cert } = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notAfterDate: week,
    extensions: [
      {
        name: 'subjectAltName',
        altNames: [
          { type: 7, ip: '127.0.0.1' },
          { type: 2, value: 'localhost' },
        ],
      },
    ],
  });
  const dir = mkdtempSync(path.join(tmpdir(), 'switchboard-test-tls-'));
  const trusted = path.join(dir, 'trusted.pem');
  const already = process.env.NODE_EXTRA_CA_CERTS;
  writeFileSync(trusted, (already ? `${readFileSync(already, 'utf8')}\n` : '') + cert);
  process.env.NODE_EXTRA_CA_CERTS = trusted;
  project.provide('localTls', { key, cert });
  return () => rmSync(dir, { recursive: true, force: true });
}

/** One throwaway embedded PostgreSQL per run, or the server named by DATABASE_URL; and a trusted local certificate. */
export default async function setup(project: TestProject) {
  const forgetCertificate = await trustLocalCertificate(project);
  if (process.env.DATABASE_URL) {
    project.provide('adminDatabaseUrl', process.env.DATABASE_URL);
    return forgetCertificate;
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-test-pg-'));
  const database = await startEmbeddedPostgres({
    dataDir,
    port: await freePort(),
    database: 'postgres',
    logger: createLogger('warn', 2),
    persistent: false,
  });
  project.provide('adminDatabaseUrl', database.url);
  return async () => {
    await database.stop();
    rmSync(dataDir, { recursive: true, force: true });
    forgetCertificate();
  };
}
