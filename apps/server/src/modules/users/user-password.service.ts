import type { ServiceContext } from '../../kit/context.js';
import { hashPassword } from './password.js';
import { User } from './user.entity.js';

/**
 * Stores a fresh hash of the password the user just signed in with, made with today's parameters. The same
 * password: the transaction says so (`switchboard.password_rehash`), so the users trigger that ends a user's other
 * portal sessions when the password changes leaves them alone.
 */
export async function rehashPassword({ em }: ServiceContext, userId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await em.transactional(async (tx) => {
    await tx.execute(`select set_config('switchboard.password_rehash', 'on', true)`);
    await tx.nativeUpdate(User, { id: userId }, { passwordHash });
  });
}
