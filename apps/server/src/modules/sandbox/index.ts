import { defineModule } from '../../kit/module.js';
import { sandboxService } from './sandbox.service.js';

export { receiveSandboxMessage } from './sandbox-inbound.js';

/**
 * The sandbox: a channel provider with no outside service behind it, beside whatsapp. It accepts every message and
 * reports `sent`, then `delivered`, on its own timeline; a customer's message is simulated with
 * receiveSandboxMessage (`pnpm cli sandbox:receive`, the tests); its files are a placeholder image.
 */
export const sandboxModule = defineModule({
  name: 'sandbox',
  entities: [],
  services: [sandboxService],
});
