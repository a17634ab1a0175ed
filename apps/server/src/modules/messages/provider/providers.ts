import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../../../logger.js';
import { applyStatusUpdate } from '../message.service.js';
import type { MessagingProvider, StatusSink } from './messaging-provider.js';
import { SandboxProvider, type SandboxTimeline } from './sandbox.provider.js';

/** The configured providers by name; a channel's `provider` column picks one. */
export interface MessagingProviders {
  get(name: string): MessagingProvider | undefined;
  close(): Promise<void>;
}

/** Stores every provider's status reports; failures are logged, as a webhook receiver would before answering. */
export function statusSink(em: EntityManager, logger: Logger): StatusSink {
  return async (update) => {
    try {
      const applied = await applyStatusUpdate(em.fork(), update);
      logger.debug({ ...update, applied }, 'message status update');
    } catch (error) {
      logger.error({ err: error, ...update }, 'storing a message status update failed');
    }
  };
}

export function messagingProviders(providers: MessagingProvider[]): MessagingProviders {
  const byName = new Map(providers.map((provider) => [provider.name, provider]));
  return {
    get: (name) => byName.get(name),
    close: async () => {
      await Promise.all(providers.map((provider) => provider.close()));
    },
  };
}

/** The default wiring: the sandbox provider, reporting into the database, next to the real providers given. */
export function createMessagingProviders(em: EntityManager, logger: Logger, sandbox: SandboxTimeline, providers: MessagingProvider[] = []): MessagingProviders {
  return messagingProviders([new SandboxProvider(sandbox, statusSink(em, logger)), ...providers]);
}
