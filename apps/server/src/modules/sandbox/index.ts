import { contract } from '@switchboard/contract';
import { routes } from '../../kit/implement.js';
import { defineModule } from '../../kit/module.js';
import { sandboxRouter } from './sandbox.router.js';
import { sandboxService } from './sandbox.service.js';

export { receiveSandboxMessage } from './sandbox-inbound.js';

/**
 * The sandbox: a channel provider with no outside service behind it, beside whatsapp. It accepts every message and
 * reports `sent`, then `delivered`, on its own timeline; a customer's message is simulated with
 * receiveSandboxMessage (workspace/sandbox/receive, `pnpm cli sandbox receive`, the tests); its files are a
 * placeholder image.
 */
export const sandboxModule = defineModule({
  name: 'sandbox',
  entities: [],
  routes: [routes(contract.workspace.sandbox, sandboxRouter)],
  services: [sandboxService],
});
