import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { User } from './user.entity.js';
import { usersDemo } from './user-demo.js';
import { platformMembersService } from './platform-members.provider.js';
import { usersRouter } from './user.router.js';
import { usersSeed } from './user.seed.js';

export { hashPassword, needsRehash, verifyPassword } from './password.js';
export { PLAN_HOLDERS, type PlanHolders } from './plan-holders.port.js';
export { User } from './user.entity.js';
export { DEMO_PASSWORD } from './user-demo.js';
export { userKey } from './user.seed.js';
export { rehashPassword } from './user-password.service.js';

/** Users: listed by users/list; channels, tickets and plans refer to them; the portal signs them in. */
export const usersModule = defineModule({
  name: 'users',
  entities: [User],
  routes: [routes(contract.platform.users, usersRouter)],
  seed: [usersSeed],
  services: [platformMembersService],
  demo: { users: usersDemo },
});
