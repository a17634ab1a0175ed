import { defineModule } from '../../kit/module.js';
import { ApiKey } from './api-key.entity.js';
import { userApiKeySeed } from './api-key.seed.js';

export { apiKeyLookup, CALLER_CHANGES_CHANNEL, findUserCaller } from './api-key.queries.js';

export { createApiKey, listApiKeys, revokeApiKey, type ApiKeySummary, type CreatedApiKey } from './api-key.service.js';

/** Keys are created by the seed (users), the CLI and the portal; the HTTP layer resolves them via apiKeyLookup. */
export const apiKeysModule = defineModule({
  name: 'api-keys',
  entities: [ApiKey],
  seed: [userApiKeySeed],
  demo: { users: { owner: { apiKey: true } } },
});
