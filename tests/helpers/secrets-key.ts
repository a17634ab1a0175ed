import { randomBytes } from 'node:crypto';
import { createSecretBox } from '../../apps/server/src/kit/secrets.js';
import { webhookSecrets } from '../../apps/server/src/modules/webhooks/webhook-secret-box.js';

/**
 * SECRETS_KEY for the servers and CLI runs of one test file (they share its databases): webhook endpoints need one
 * to seal their signing secrets. A suite passes its own, or '' for none.
 */
export const TEST_SECRETS_KEY = randomBytes(32).toString('base64');

/** A webhook endpoint's signing secret as stored (sealed with TEST_SECRETS_KEY), opened. */
export const openWebhookSecret = (endpointId: string, ciphertext: string) =>
  webhookSecrets(createSecretBox(TEST_SECRETS_KEY)).open(endpointId, ciphertext);
