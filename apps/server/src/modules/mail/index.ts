import { defineModule } from '../../kit/module.js';
import { createMailer, emailTarget } from './mail.service.js';
import { OutboundEmail } from './outbound-email.entity.js';

export { queueEmail } from './mail.service.js';

/** Outbound email: every message is a row, sent by a job over SMTP (or to the log when SMTP_URL is unset). */
export const mailModule = defineModule({
  name: 'mail',
  entities: [OutboundEmail],
  jobs: ({ config, logger }) => {
    const mailer = createMailer(config, logger);
    return { targets: [emailTarget(mailer)], close: () => mailer.close(), describe: { mail: mailer.transport } };
  },
  metrics: { deliveryFailures: { kind: 'email', count: (em) => em.count(OutboundEmail, { status: 'failed' }) } },
});
