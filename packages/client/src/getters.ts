// Read by the type generator too (scripts/generate-types.ts): type imports only.
import type { ErrorCode } from './generated/api.js';

/**
 * Lists that filter by their items' id (`broadcastId` on broadcasts/list), by the group they sit in: each group gets
 * a `get(id, params?)` over its list that answers the one item, or throws NotFoundError with `notFound`. The list
 * is the only request, so its rate class, retries and errors are the list's.
 */
export const GETTERS = {
  'workspace.broadcasts': { idParam: 'broadcastId', notFound: 'broadcast_not_found' },
  'workspace.automations': { idParam: 'automationId', notFound: 'automation_not_found' },
  'platform.webhooks': { idParam: 'endpointId', notFound: 'webhook_not_found' },
} as const satisfies Record<string, { idParam: string; notFound: ErrorCode }>;
