import { defineEntity, p } from '@mikro-orm/core';

/**
 * A provider's status report that arrived before the message it names had its provider id recorded (the provider
 * answered the send, its report came back before the pipeline committed the answer). It is applied in the
 * transaction that records that id, and expires after PARKED_REPORT_RETENTION when no message ever takes it.
 */
const ParkedReportSchema = defineEntity({
  name: 'ParkedReport',
  tableName: 'message_status_reports_parked',
  properties: {
    id: p.uuid().primary(),
    provider: p.text(),
    providerMessageId: p.text(),
    channelId: p.uuid().nullable(),
    status: p.text(),
    errorCode: p.integer().nullable(),
    errorTitle: p.text().nullable(),
    eventAt: p.datetime().nullable(),
    parkedAt: p.datetime(),
  },
  indexes: [
    { name: 'message_status_reports_parked_provider_id_index', properties: ['provider', 'providerMessageId'] },
    { name: 'message_status_reports_parked_parked_at_index', properties: ['parkedAt'] },
  ],
});
export class ParkedReport extends ParkedReportSchema.class {}
ParkedReportSchema.setClass(ParkedReport);
