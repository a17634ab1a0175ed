import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../kit/errors.js';
import { resealColumns, type RekeyCount } from '../../kit/secret-columns.js';
import type { SecretBox } from '../../kit/secrets.js';
import { provide, serviceKey } from '../../kit/services.js';
import { WebhookEndpoint } from './webhook-endpoint.entity.js';

/**
 * Endpoints' signing secrets at rest: sealed with the SECRETS_KEY box (AES-256-GCM, kit/secrets.ts), each bound to
 * its endpoint, so a ciphertext copied into another row does not open. The secret a rotation replaced is sealed the
 * same way, which lets it move to `previousSecretCiphertext` as it is.
 */
export interface WebhookSecrets {
  seal(endpointId: string, secret: string): string;
  open(endpointId: string, ciphertext: string): string;
}

export const WEBHOOK_SECRETS = serviceKey<WebhookSecrets>('webhooks.secrets');

/** The context a sealed secret is bound to (migration ..._webhook_secrets_encrypted writes the same). */
const contextOf = (endpointId: string) => `webhook-endpoint:${endpointId}`;

function boxOf(secrets: SecretBox | undefined): SecretBox {
  if (!secrets) {
    throw new AppError(
      503,
      'service_unavailable',
      'Webhook endpoints need SECRETS_KEY (32 random bytes, base64) to store their signing secrets; it is not set.',
    );
  }
  return secrets;
}

export function webhookSecrets(secrets: SecretBox | undefined): WebhookSecrets {
  return {
    seal: (endpointId, secret) => boxOf(secrets).encrypt(secret, contextOf(endpointId)),
    open: (endpointId, ciphertext) => boxOf(secrets).decrypt(ciphertext, contextOf(endpointId)),
  };
}

/** `pnpm cli secrets rekey`: every endpoint's signing secrets (and a rotation's replaced one) under the current key. */
export const rekeyWebhookSecrets = (em: EntityManager, box: SecretBox): Promise<RekeyCount> =>
  resealColumns(em, box, WebhookEndpoint, ['secretCiphertext', 'previousSecretCiphertext'], (row) => contextOf(row.id));

/**
 * Start-up check, as for WhatsApp channels: stored endpoints need SECRETS_KEY, and the one they were sealed with.
 * Fails with a message an operator can act on instead of failing every delivery later.
 */
async function checkStoredSecrets(em: EntityManager, secrets: SecretBox | undefined): Promise<void> {
  const [endpoint] = await em.find(
    WebhookEndpoint,
    {},
    { fields: ['id', 'secretCiphertext'], orderBy: { createdAt: 'asc' }, limit: 1 },
  );
  if (!endpoint) return;
  if (!secrets) {
    throw new Error(
      'SECRETS_KEY is not set, but webhook endpoints exist whose signing secrets it encrypts: ' +
        'set the SECRETS_KEY they were stored with.',
    );
  }
  try {
    secrets.decrypt(endpoint.secretCiphertext, contextOf(endpoint.id));
  } catch (error) {
    throw new Error(`SECRETS_KEY cannot open the stored webhook signing secrets: ${(error as Error).message}`);
  }
}

export const webhookSecretsService = provide({
  key: WEBHOOK_SECRETS,
  start: ({ secrets }) => webhookSecrets(secrets),
  check: (_service, { em, secrets }) => checkStoredSecrets(em.fork(), secrets),
});
