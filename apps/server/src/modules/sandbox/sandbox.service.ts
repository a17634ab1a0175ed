import { provide, serviceKey } from '../../kit/services.js';
import { MESSAGING } from '../messages/index.js';
import { statusSink } from '../sending/index.js';
import { applyTemplateChange } from '../templates/index.js';
import { SandboxProvider } from './sandbox.provider.js';

const SANDBOX = serviceKey<SandboxProvider>('sandbox');

/**
 * Registers the sandbox with the messaging providers, its status reports stored through messages' sink. The
 * providers close it with the others (its pending timers stop then).
 */
export const sandboxService = provide({
  key: SANDBOX,
  start: ({ em, logger, config, services }) => {
    const sandbox = new SandboxProvider(
      {
        sentAfterMs: config.SANDBOX_SENT_AFTER_MS,
        deliveredAfterMs: config.SANDBOX_DELIVERED_AFTER_MS,
        templateReviewMs: config.SANDBOX_TEMPLATE_REVIEW_MS,
      },
      statusSink(em, logger),
      (review) =>
        em
          .fork()
          .transactional((tx) => applyTemplateChange(tx, review))
          .then((outcome) => outcome !== 'not_found')
          .catch((error: unknown) => {
            logger.warn({ ...review, reason: (error as Error).message }, 'sandbox template review not stored');
            return true;
          }),
    );
    services.get(MESSAGING).register(sandbox);
    return sandbox;
  },
});
