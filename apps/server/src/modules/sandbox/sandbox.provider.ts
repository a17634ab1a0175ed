import { randomBytes } from 'node:crypto';
import type { DeliveryStatus, MessagingProvider, OutboundSessionMessage, StatusSink } from '../messages/index.js';
import { describeSandboxMedia, openSandboxMedia } from './sandbox-media.js';

export interface SandboxTimeline {
  /** Delay after `send` before the message is reported `sent`. */
  sentAfterMs: number;
  /** Delay after `send` before the message is reported `delivered`. */
  deliveredAfterMs: number;
}

/**
 * Stands in for a real provider's servers: accepts every message, gives it a provider-format id (`wamid.` +
 * random) and reports `sent`, then `delivered`, on its own timeline through the same sink a real provider's
 * status webhook feeds. In-process timers are acceptable here because they model the outside world, not state
 * the service relies on: a lost timer (restart) only leaves a sandbox message at its last status.
 */
export class SandboxProvider implements MessagingProvider {
  readonly name = 'sandbox';
  readonly describeMedia = describeSandboxMedia;
  readonly openMedia = openSandboxMedia;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly timeline: SandboxTimeline,
    private readonly report: StatusSink,
  ) {}

  async send(): Promise<{ providerMessageId: string }> {
    return this.accept(['sent', 'delivered']);
  }

  /** As WhatsApp: a reaction is reported `sent` and nothing more. */
  async sendSession(message: OutboundSessionMessage): Promise<{ providerMessageId: string }> {
    return this.accept(message.type === 'reaction' ? ['sent'] : ['sent', 'delivered']);
  }

  /** Nobody reads receipts or sees the typing indicator on the sandbox's side. */
  async markRead(): Promise<void> {}

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.report.close();
  }

  private accept(reports: readonly ('sent' | 'delivered')[]): { providerMessageId: string } {
    const providerMessageId = `wamid.${randomBytes(18).toString('base64url')}`;
    const after = { sent: this.timeline.sentAfterMs, delivered: this.timeline.deliveredAfterMs };
    for (const status of reports) this.later(after[status], providerMessageId, status);
    return { providerMessageId };
  }

  private later(delayMs: number, providerMessageId: string, status: DeliveryStatus) {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.report({ provider: this.name, providerMessageId, status });
    }, delayMs);
    // Pending sandbox reports must not keep a finished process alive.
    timer.unref();
    this.timers.add(timer);
  }
}
