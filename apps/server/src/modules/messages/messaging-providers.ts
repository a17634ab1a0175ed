import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../../kit/errors.js';
import type { JobQueue } from '../../kit/jobs.js';
import type { Logger } from '../../logger.js';
import { applyStatusUpdate } from './message.service.js';
import type { MessagingProvider, StatusSink } from './messaging-provider.port.js';

/** The configured providers by name; a channel's `provider` column picks one. */
export interface MessagingProviders {
  get(name: string): MessagingProvider | undefined;
  /** Adds a provider: a module that carries channels of its own (sandbox, WhatsApp Cloud API) registers it at start. */
  register(provider: MessagingProvider): void;
  close(): Promise<void>;
}

/** The channel's provider (its `provider` column names it); 503 when this server has none by that name. */
export function requireProvider(providers: MessagingProviders, name: string): MessagingProvider {
  const provider = providers.get(name);
  if (!provider) {
    throw new AppError(503, 'service_unavailable', `This channel's messaging provider "${name}" is not configured.`);
  }
  return provider;
}

/**
 * Stores a provider's status reports that arrive in the process (the sandbox's), each in its own transaction with
 * the event it causes; failures are logged. The WhatsApp Cloud API's reports arrive by webhook and are applied by
 * its inbound job through the same applyStatusUpdate.
 */
export function statusSink(em: EntityManager, jobs: JobQueue, logger: Logger): StatusSink {
  return async (update) => {
    try {
      const change = await em.fork().transactional((tx) => applyStatusUpdate({ em: tx }, jobs, update));
      logger.debug({ ...update, applied: change !== undefined }, 'message status update');
    } catch (error) {
      logger.error({ err: error, ...update }, 'storing a message status update failed');
    }
  };
}

/** Empty at first: each module that carries channels (sandbox, whatsapp) registers its provider when it starts. */
export function createMessagingProviders(): MessagingProviders {
  const byName = new Map<string, MessagingProvider>();
  return {
    get: (name) => byName.get(name),
    register(provider) {
      if (byName.has(provider.name))
        throw new Error(`A messaging provider named "${provider.name}" is registered already`);
      byName.set(provider.name, provider);
    },
    close: async () => {
      await Promise.all([...byName.values()].map((provider) => provider.close()));
    },
  };
}
