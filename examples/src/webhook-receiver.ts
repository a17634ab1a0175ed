// Receive webhooks: verify each delivery's signature, then act on the typed event. `pnpm webhook-receiver`, with
// SWITCHBOARD_WEBHOOK_SECRET set to the endpoint's whsec_… secret (two, comma-separated, during a rotation).
import { verifyWebhook, WebhookVerificationError, type SwitchboardEvent } from '@switchboard/client';
import express, { type Express, type Request, type Response } from 'express';
import { fileURLToPath } from 'node:url';

export const WEBHOOK_PATH = '/webhooks/switchboard';

/** One line about an event: `switch (event.type)` narrows `event.data` to that event's fields. */
export function describeEvent(event: SwitchboardEvent): string {
  switch (event.type) {
    case 'ticket.closed':
      return `ticket ${event.data.ticket.shortId} "${event.data.ticket.title}" closed`;
    case 'message.status.updated':
      return `message ${event.data.msgid}: ${event.data.previousStatus} → ${event.data.status}`;
    case 'message.received':
      return `${event.data.contact.name} wrote: ${event.data.text ?? `(${event.data.type})`}`;
    case 'automation.run.completed':
      return `automation ${event.data.run.automationId} ${event.data.run.outcome} on ${event.data.run.event}`;
    case 'conversation.updated':
      return `conversation with ${event.data.conversation.name} now ${event.data.conversation.status}`;
    case 'contact.status.changed':
      return `${event.data.contact.name}: ${event.data.previousStatus} → ${event.data.contact.status}`;
    case 'broadcast.completed':
      return `broadcast "${event.data.broadcast.name}" completed: ${event.data.broadcast.counts.sent} sent`;
    case 'template.updated':
      return `template ${event.data.template.name} (${event.data.template.language}) now ${event.data.template.status}`;
    case 'channel.updated': {
      const { name, quality, messagingLimit } = event.data.channel;
      return `channel ${name}: quality ${quality}, tier ${messagingLimit ?? 'not reported'}`;
    }
  }
}

/**
 * An Express app receiving Switchboard's webhooks. The route reads the raw body (express.raw): the signature covers
 * the exact bytes, which parsed and re-serialized JSON would not be. A delivery is retried until it gets a 2xx, with
 * the same `webhook-id`: an event handled before is acknowledged again without acting twice.
 */
export function webhookApp(
  secrets: string | string[],
  handle: (event: SwitchboardEvent) => Promise<void> | void,
): Express {
  const handled = new Set<string>();
  const receive = async (req: Request, res: Response) => {
    let event: SwitchboardEvent;
    try {
      event = verifyWebhook(req.body as Buffer, req.headers, secrets);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      // Signed by Switchboard but newer than this SDK: acknowledge it, and upgrade @switchboard/client.
      if (error.reason === 'unknown_event_type') return void res.sendStatus(204);
      return void res.status(400).json({ error: error.reason, message: error.message });
    }
    const id = req.get('webhook-id')!;
    if (!handled.has(id)) {
      await handle(event);
      handled.add(id);
    }
    res.sendStatus(204);
  };
  const app = express();
  // Express 4 does not catch a rejected promise of a handler: hand it to the error handler (a 500: the delivery is
  // retried).
  app.post(WEBHOOK_PATH, express.raw({ type: 'application/json' }), (req, res, next) => {
    receive(req, res).catch(next);
  });
  return app;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const secrets = (process.env.SWITCHBOARD_WEBHOOK_SECRET ?? '').split(',').filter(Boolean);
  const port = Number(process.env.PORT ?? 4000);
  webhookApp(secrets, (event) => console.log(describeEvent(event))).listen(port, () =>
    console.log(`listening on http://localhost:${port}${WEBHOOK_PATH}`),
  );
}
