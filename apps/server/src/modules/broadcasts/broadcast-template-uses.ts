import { provide } from '../../kit/services.js';
import { Message } from '../messages/index.js';
import { TEMPLATE_USES, type TemplateUses } from '../templates/index.js';
import { Broadcast } from './broadcast.entity.js';

/** Broadcasts that will still send (a paused one once resumed): a template they name cannot be deleted under them. */
const UNFINISHED = ['scheduled', 'preparing', 'sending', 'paused'] as const;

const templateUses: TemplateUses = {
  async useOf(em, channelId, name, language) {
    const languageOf = language === undefined ? {} : { language };
    const broadcast = await em.findOne(
      Broadcast,
      { channel: channelId, templateName: name, status: { $in: [...UNFINISHED] }, ...languageOf },
      { fields: ['name', 'status'] },
    );
    if (broadcast) return `the ${broadcast.status} broadcast "${broadcast.name}"`;
    const message = await em.findOne(
      Message,
      { channel: channelId, templateName: name, status: 'scheduled', ...languageOf },
      { fields: ['msgid'] },
    );
    return message ? `the scheduled message ${message.msgid}` : undefined;
  },
};

export const templateUsesService = provide({ key: TEMPLATE_USES, start: () => templateUses });
