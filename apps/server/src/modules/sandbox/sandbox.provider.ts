import { randomBytes } from 'node:crypto';
import type {
  DeliveryStatus,
  MessagingProvider,
  OutboundSessionMessage,
  StatusSink,
  SubmittedTemplate,
  TemplateDraft,
} from '../messages/index.js';
import type { TemplateChange } from '../templates/index.js';
import { describeSandboxMedia, openSandboxMedia } from './sandbox-media.js';

export interface SandboxTimeline {
  /** Delay after `send` before the message is reported `sent`. */
  sentAfterMs: number;
  /** Delay after `send` before the message is reported `delivered`. */
  deliveredAfterMs: number;
  /** Delay after a template is submitted (created or edited) before its review's outcome. */
  templateReviewMs: number;
}

/**
 * Where the sandbox's template reviews go: the templates' store, as Meta's status webhook goes. False: the template
 * is not stored (yet): the review is tried again a few times.
 */
export type TemplateReviewSink = (review: TemplateChange) => Promise<boolean>;

/** A review that finds no template yet (its submission still committing) is retried this often before it is dropped. */
const REVIEW_ATTEMPTS = 20;

/** A sandbox template whose name starts with this is rejected by its review, so clients can try both outcomes. */
const REJECTED_PREFIX = 'reject_';

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
    private readonly reviewed: TemplateReviewSink,
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

  /**
   * Takes every template for review: `pending` now, reviewed after `templateReviewMs`: `rejected` when its name
   * starts with `reject_`, else `approved`. A media header keeps its sample URL as the handle (nothing to upload).
   */
  async createTemplate(_em: unknown, channelId: string, draft: TemplateDraft): Promise<SubmittedTemplate> {
    const review: TemplateChange = draft.name.startsWith(REJECTED_PREFIX)
      ? { channelId, name: draft.name, language: draft.language, status: 'rejected', reason: 'INVALID_FORMAT' }
      : { channelId, name: draft.name, language: draft.language, status: 'approved' };
    this.review(review, REVIEW_ATTEMPTS);
    const header =
      draft.header && 'mediaUrl' in draft.header
        ? { format: draft.header.format, example: draft.header.mediaUrl ?? draft.header.example }
        : draft.header;
    return { providerTemplateId: null, status: 'pending', category: draft.category, header };
  }

  editTemplate(em: unknown, channelId: string, _template: unknown, draft: TemplateDraft): Promise<SubmittedTemplate> {
    return this.createTemplate(em, channelId, draft);
  }

  /** The sandbox keeps no templates of its own. */
  async deleteTemplates(): Promise<void> {}

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

  private review(review: TemplateChange, attemptsLeft: number) {
    const timer = setTimeout(
      () => {
        this.timers.delete(timer);
        void this.reviewed(review).then((stored) => {
          if (!stored && attemptsLeft > 1) this.review(review, attemptsLeft - 1);
        });
      },
      Math.max(this.timeline.templateReviewMs, 1),
    );
    timer.unref();
    this.timers.add(timer);
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
