import type { contract } from '@switchboard/contract';
import { implement, type RouteDeps } from '../../kit/implement.js';
import { resolveChannel } from '../channels/index.js';
import { receiveSandboxMessage } from './sandbox-inbound.js';

/** workspace/sandbox/receive: the CLI's `sandbox receive` over the API, for a channel the key may use. */
export function sandboxRouter({ em, logger, jobs }: RouteDeps) {
  return {
    receive: implement<typeof contract.workspace.sandbox.receive>(
      em,
      logger,
      async ({ channelId, from, type, text }, ctx) => {
        const channel = await resolveChannel(ctx, channelId);
        const { msgid } = await receiveSandboxMessage(ctx, jobs, {
          channelId: channel.id,
          from,
          text,
          image: type === 'image',
        });
        return { success: true, data: { msgid, from, type }, message: 'Customer message received' };
      },
    ),
  };
}
