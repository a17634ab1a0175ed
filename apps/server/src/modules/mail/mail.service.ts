import type { EntityManager } from '@mikro-orm/postgresql';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import { isoTimestamp } from '../../db/sql.js';
import type { AttemptOutcome, DeliveryTarget, PendingRow } from '../../events/delivery.js';
import { QUEUES } from '../../events/queue.js';
import type { Logger } from '../../logger.js';

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
      const info = await transporter.sendMail({ from: config.MAIL_FROM, to, subject, text, messageId: `<${id}@${domain}>` });
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

export function emailTarget(mailer: Mailer): DeliveryTarget<EmailRow, EmailOutcome> {
  return {
    queue: QUEUES.email,
    async load(em, job) {
      const [row] = await em.execute<EmailRow[]>(
        `select id, "to", subject, text, attempts, ${isoTimestamp('created_at', 'createdAt')}
           from outbound_emails where id = ? and status = 'pending' and attempts = ?`,
        [job.id, job.attempt],
      );
      return row ?? null;
    },
    async attempt(row) {
      try {
        const { messageId } = await mailer.send(row);
        return { ok: true, messageId };
      } catch (error) {
        return { ok: false, error: (error as Error).message, final: isPermanent(error) };
      }
    },
    async record(tx: EntityManager, row, outcome, status) {
      const updated = await tx.execute(
        `update outbound_emails
            set attempts = attempts + 1, status = ?, transport = ?, provider_message_id = ?, last_error = ?,
                sent_at = case when ?::boolean then now() end, updated_at = now()
          where id = ? and attempts = ? returning id`,
        [status === 'done' ? 'sent' : status, mailer.transport, outcome.messageId ?? null, outcome.error ?? null, outcome.ok, row.id, row.attempts],
      );
      return updated.length === 1;
    },
  };
}
