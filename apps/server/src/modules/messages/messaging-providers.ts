import { AppError } from '../../kit/errors.js';
import type { MessagingProvider } from './messaging-provider.port.js';

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
