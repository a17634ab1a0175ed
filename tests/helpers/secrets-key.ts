import { randomBytes } from 'node:crypto';
import { createSecretBox, type SecretBox } from '../../apps/server/src/kit/secrets.js';
import { WEBHOOK_SECRETS, webhookSecrets } from '../../apps/server/src/modules/webhooks/webhook-secret-box.js';

/**
 * SECRETS_KEY for the servers and CLI runs of one test file (they share its databases): webhook endpoints need one
 * to seal their signing secrets. A suite passes its own, or '' for none.
 */
export const TEST_SECRETS_KEY = randomBytes(32).toString('base64');

/** A webhook endpoint's signing secret as stored (sealed with TEST_SECRETS_KEY), opened. */
export const openWebhookSecret = (endpointId: string, ciphertext: string) =>
  webhookSecrets(createSecretBox(TEST_SECRETS_KEY)).open(endpointId, ciphertext);

/**
 * The services a seed file with webhook endpoints needs when it is loaded outside a server (for one spawned later):
 * their secrets sealed with the database's box, as the spawned server (SECRETS_KEY=TEST_SECRETS_KEY) opens them.
 */
export const sealingServices = (secrets: SecretBox | undefined) => ({
  get: <T>(key: { name: string }): T => {
    if (key.name !== WEBHOOK_SECRETS.name) throw new Error(`no service ${key.name} outside a server`);
    return webhookSecrets(secrets) as T;
  },
});
