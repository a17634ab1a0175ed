import type { SwitchboardClient } from '@switchboard/client';
import type { Broadcast } from '@switchboard/contract';

type Broadcasts = SwitchboardClient['workspace']['broadcasts'];

/** Out of `preparing` (and `scheduled`): its audience resolved, its counts filled. */
export const started = (broadcast: Broadcast) => broadcast.status !== 'preparing' && broadcast.status !== 'scheduled';

/** Polls broadcasts/list (the signal) until the broadcast satisfies `done`; returns it as it then stands. */
export async function untilBroadcast(
  broadcasts: Broadcasts,
  id: string,
  done: (broadcast: Broadcast) => boolean,
  options: { channelId?: string; timeoutMs?: number } = {},
): Promise<Broadcast> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  for (;;) {
    const { data } = await broadcasts.list({ ...(options.channelId && { channelId: options.channelId }), limit: 200 });
    const found = data.find((broadcast) => broadcast.id === id)!;
    if (done(found)) return found;
    if (Date.now() > deadline) throw new Error(`broadcast ${id} never got there: ${JSON.stringify(found)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
