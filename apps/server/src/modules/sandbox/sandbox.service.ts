import { provide, serviceKey } from '../../kit/services.js';
import { MESSAGING, statusSink } from '../messages/index.js';
import { SandboxProvider } from './sandbox.provider.js';

const SANDBOX = serviceKey<SandboxProvider>('sandbox');

/**
 * Registers the sandbox with the messaging providers, its status reports stored through messages' sink. The
 * providers close it with the others (its pending timers stop then).
 */
export const sandboxService = provide({
  key: SANDBOX,
  start: ({ em, jobs, logger, config, services }) => {
    const sandbox = new SandboxProvider(
      { sentAfterMs: config.SANDBOX_SENT_AFTER_MS, deliveredAfterMs: config.SANDBOX_DELIVERED_AFTER_MS },
      statusSink(em, jobs, logger),
    );
    services.get(MESSAGING).register(sandbox);
    return sandbox;
  },
});
