import type { ConversationsQuery } from '../../apps/server/src/modules/conversations/conversation.service.js';

/** One chat/conversations/list request of the benchmark's agent inbox: its parameters besides the channel. */
export interface InboxQuery {
  name: string;
  query: Partial<ConversationsQuery>;
}

/** The filters an agent's inbox uses: by status (one or several), unassigned, a colleague's, theirs and open. */
export function inboxFilters(assignees: string[]): InboxQuery[] {
  return [
    { name: 'status open', query: { status: 'open' } },
    { name: 'status open or pending', query: { status: ['open', 'pending'] } },
    { name: 'unassigned', query: { assigneeId: 'none' } },
    ...assignees.slice(0, 5).flatMap((assigneeId, i) => [
      { name: `assignee ${i + 1}`, query: { assigneeId } },
      { name: `assignee ${i + 1}, open`, query: { status: 'open' as const, assigneeId } },
    ]),
  ];
}

/** The unfiltered page 1, then every filter: what tests/bench/inbox-plans.ts explains. */
export const inboxQueries = (assignees: string[]): InboxQuery[] => [
  { name: 'page 1, unfiltered', query: {} },
  ...inboxFilters(assignees),
];
