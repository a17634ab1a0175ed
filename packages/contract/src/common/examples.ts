/**
 * Ids the request examples use: valid UUIDs (and msgids and a template name of the demo's), so the examples satisfy
 * their own schemas (OpenAPI tools check that) and work against the demo data.
 * The Postman export swaps each one in the request examples for its `{{variable}}`, which the collection fills from
 * the replies of the requests before (see @switchboard/openapi's postman-setup.ts and postman-tests.ts).
 */
export const EXAMPLE_IDS = {
  platformId: '6d1f0c7e-3b52-4a8e-9c41-2f7d5b8a9e10',
  channelId: '1b9e7c3a-5d24-4f6b-8a0e-7c3d9f2b4a61',
  userId: '8a4c2e6f-1d3b-4e5a-9f70-3b6d8c1e2a94',
  addonId: '4e7a9c1b-6f2d-4b3e-8d5a-9c0e1f3a7b28',
  ticketId: 'c3e5a7b9-2d4f-4a6c-8e1b-5f7d9a3c1e62',
  contactId: '9f2b4d6e-8a1c-4e3f-b5d7-0c2e4a6b8d13',
  webhookEndpointId: '9d2b6f4a-7c1e-4a3b-8f5d-2e6a0c9b7d13',
  automationId: '2c8e4a6b-0d1f-4b3c-9e5a-7f1b3d5c9e08',
  broadcastId: '5a3c7e9b-1f2d-4c6e-a8b0-3d5f7a9c1e24',
  /** A msgid, not a UUID: the scheduled message chat/message/cancel's example cancels. */
  scheduledMsgid: 'sbm.DEMO0000000000000000000000000001',
  /** An outbound message's msgid (chat/message/status): the demo's first template message. */
  sentMsgid: 'wamid.DEMO0001',
  /** A customer's message (chat/message/read, a reply's `replyTo`): the demo customer's open question. */
  customerMsgid: 'wamid.DEMO0002',
  /** A customer's photo (chat/media/get): the demo customer's. */
  photoMsgid: 'wamid.DEMO0003',
  /** An approved template with two placeholders (chat/templates/send, a broadcast, a scheduled send). */
  templateName: 'order_update',
} as const;
export type ExampleIdName = keyof typeof EXAMPLE_IDS;
