import { randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import type { AttemptOutcome, RowTarget, JobQueue, PendingRow } from '../../kit/jobs.js';
import type { Logger } from '../../logger.js';
import { OutboundEmail } from './outbound-email.entity.js';
import type { ServiceContext } from '../../kit/context.js';

/** The job that sends one outbound_emails row. */
const EMAIL_QUEUE = 'email.send';

export interface Mailer {
  /** `smtp`, or `log` when SMTP_URL is unset: the mail goes to the log and counts as sent. */
  transport: 'smtp' | 'log';
  send(message: { id: string; to: string; subject: string; text: string }): Promise<{ messageId: string }>;
  close(): void;
}

/** nodemailer: the maintained SMTP client for Node; its JSON transport builds the same message for the log. */
export function createMailer(config: Pick<Config, 'SMTP_URL' | 'MAIL_FROM'>, logger: Logger): Mailer {
  const transporter = config.SMTP_URL
    ? nodemailer.createTransport({
        url: config.SMTP_URL,
        // nodemailer waits minutes by default; an attempt must end well inside the job's heartbeat-guarded run.
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 20_000,
      })
    : nodemailer.createTransport({ jsonTransport: true });
  const transport = config.SMTP_URL ? 'smtp' : 'log';
  const domain = /@([^>\s]+)/.exec(config.MAIL_FROM)?.[1] ?? 'switchboard.local';
  return {
    transport,
    async send({ id, to, subject, text }) {
      // A Message-ID derived from the row: if a crash makes us send the same row twice, mail clients can tell.
      const info = await transporter.sendMail({
        from: config.MAIL_FROM,
        to,
        subject,
        text,
        messageId: `<${id}@${domain}>`,
      });
      if (transport === 'log') logger.info({ mail: { to, subject, text } }, 'email (log transport, SMTP_URL unset)');
      return { messageId: info.messageId };
    },
    close: () => transporter.close(),
  };
}

interface EmailRow extends PendingRow {
  to: string;
  subject: string;
  text: string;
}

interface EmailOutcome extends AttemptOutcome {
  messageId?: string;
}

/** SMTP reply codes 5xx are permanent refusals; anything else (4xx, network) may pass on a later try. */
const isPermanent = (error: unknown) => Number((error as { responseCode?: unknown }).responseCode) >= 500;

export function emailTarget(mailer: Mailer): RowTarget<EmailRow, EmailOutcome> {
  return {
    queue: EMAIL_QUEUE,
    concurrency: 2,
    entity: OutboundEmail,
    doneStatus: 'sent',
    async load(em, pending) {
      const email = await em.findOne(OutboundEmail, pending, {
        fields: ['to', 'subject', 'text', 'attempts', 'createdAt'],
      });
      if (!email) return null;
      return {
        id: email.id,
        to: email.to,
        subject: email.subject,
        text: email.text,
        attempts: email.attempts,
        createdAt: email.createdAt.toISOString(),
      };
    },
    async attempt(row) {
      try {
        const { messageId } = await mailer.send(row);
        return { ok: true, messageId };
      } catch (error) {
        return { ok: false, error: (error as Error).message, final: isPermanent(error) };
      }
    },
    outcomeColumns: (outcome, { now }) => ({
      transport: mailer.transport,
      providerMessageId: outcome.messageId ?? null,
      sentAt: outcome.ok ? now : null,
    }),
  };
}

export interface EmailToSend {
  /** What caused the email (e.g. `ticket.closed:<ticketId>:<closedAt>`): queuing the same cause twice sends one. */
  dedupeKey: string;
  to: string;
  subject: string;
  text: string;
}

/** Records an email and queues its sending inside the caller's transaction, so both exist exactly when it commits. */
export async function queueEmail({ em: tx }: ServiceContext, jobs: JobQueue, email: EmailToSend): Promise<void> {
  const id = randomUUID();
  const { affectedRows } = await tx
    .createQueryBuilder(OutboundEmail)
    .insert({ id, ...email })
    .onConflict('dedupeKey')
    .ignore()
    .execute('run');
  if (affectedRows === 1) await jobs.enqueue(tx, EMAIL_QUEUE, { id, attempt: 0 });
}
