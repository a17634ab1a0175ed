import { defineModule } from '../../kit/module.js';
import { User } from './user.entity.js';
import { usersSeed } from './user.seed.js';

/** Users have no endpoints of their own: channels, tickets and plans refer to them; the portal signs them in. */
export const usersModule = defineModule({
  name: 'users',
  entities: [User],
  seed: [usersSeed],
});
