import { defineEntity, p } from '@mikro-orm/core';
import { createdAtColumn, updatedAtColumn, uuidPrimaryKey } from '../../kit/columns.js';
import { Channel } from '../channels/index.js';

/**
 * The WhatsApp Cloud API credentials of one channel (its `provider` is then `whatsapp_cloud`). The three secrets are
 * stored only as SecretBox ciphertexts (kit/secrets.ts) bound to this channel and column; they are hidden from
 * serialisation so no reply or log line can carry them by accident.
 */
const WhatsAppConnectionSchema = defineEntity({
  name: 'WhatsAppConnection',
  tableName: 'whatsapp_connections',
  properties: {
    id: uuidPrimaryKey(),
    channel: () => p.oneToOne(Channel).owner().unique('whatsapp_connections_channel_id_unique').deleteRule('cascade'),
    phoneNumberId: p.string().length(64),
    wabaId: p.string().length(64),
    /** The Meta app's ID, when given: template media headers' samples are uploaded on it. */
    appId: p.string().length(64).nullable(),
    /** As Graph reported them when the credentials were checked. */
    displayPhoneNumber: p.string().length(40),
    verifiedName: p.string().length(200),
    accessTokenCiphertext: p.text().hidden(),
    appSecretCiphertext: p.text().hidden(),
    verifyTokenCiphertext: p.text().hidden(),
    createdAt: createdAtColumn(),
    updatedAt: updatedAtColumn(),
  },
});
export class WhatsAppConnection extends WhatsAppConnectionSchema.class {}
WhatsAppConnectionSchema.setClass(WhatsAppConnection);
