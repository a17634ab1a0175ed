import type { EntityManager } from '@mikro-orm/postgresql';
import { describe, expect, test } from 'vitest';
import { hashPassword, verifyPassword } from '../modules/users/index.js';
import { credentialChecker } from './sign-in.service.js';

/** The users an email matches, as the checker's one query would return them. */
function usersFound(rows: { id: string; passwordHash: string | null }[]): EntityManager {
  // Library seam: a stand-in for MikroORM's EntityManager, of which the checker asks only `find`.
  return {
    find: async () => rows.map((row) => ({ ...row, platform: { isActive: true } })),
  } as unknown as EntityManager;
}

function countingVerify() {
  const runs: string[] = [];
  const verify: typeof verifyPassword = async (password, stored) => {
    runs.push(stored ?? '');
    return verifyPassword(password, stored);
  };
  return { verify, runs };
}

// Each scrypt run costs ~128 MiB and up to seconds of CPU on a loaded machine.
describe('credentialChecker', { timeout: 60_000 }, () => {
  test('an unknown email costs the same one scrypt run as a wrong password: timing reveals no accounts', async () => {
    const stored = await hashPassword('right');
    const unknown = countingVerify();
    expect(
      await credentialChecker({ verify: unknown.verify })(usersFound([]), {
        email: 'nobody@example.com',
        password: 'x',
      }),
    ).toEqual({ status: 'invalid' });
    const wrong = countingVerify();
    expect(
      await credentialChecker({ verify: wrong.verify })(usersFound([{ id: 'u1', passwordHash: stored }]), {
        email: 'a@example.com',
        password: 'x',
      }),
    ).toEqual({ status: 'invalid' });
    expect(unknown.runs).toHaveLength(1);
    expect(unknown.runs[0]).toMatch(/^scrypt\$/);
    expect(wrong.runs).toEqual([stored]);
  });

  test('a user without a password is checked against the decoy and never signed in', async () => {
    const { verify, runs } = countingVerify();
    const outcome = await credentialChecker({ verify })(usersFound([{ id: 'u1', passwordHash: null }]), {
      email: 'a@example.com',
      password: '',
    });
    expect(outcome).toEqual({ status: 'invalid' });
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatch(/^scrypt\$/);
  });

  test('signs in the one user whose password matches and asks for the platform when several match', async () => {
    const stored = await hashPassword('right');
    const other = await hashPassword('other');
    const check = credentialChecker();
    expect(
      await check(
        usersFound([
          { id: 'u1', passwordHash: other },
          { id: 'u2', passwordHash: stored },
        ]),
        { email: 'a@example.com', password: 'right' },
      ),
    ).toEqual({ status: 'ok', userId: 'u2', rehash: false, platformActive: true });
    expect(
      await check(
        usersFound([
          { id: 'u1', passwordHash: stored },
          { id: 'u2', passwordHash: stored },
        ]),
        { email: 'a@example.com', password: 'right' },
      ),
    ).toEqual({ status: 'ambiguous' });
  });
});
