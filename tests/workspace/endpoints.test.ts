import { contract } from '@switchboard/contract';
import { describe, expect, it } from 'vitest';
import { WORKSPACE_ENDPOINTS, workspaceEndpoints } from './endpoints.js';

describe('the workspace endpoint table the table-driven suites iterate', () => {
  it('is read from the contract: its endpoints in contract order, without the skipped ones', () => {
    expect(WORKSPACE_ENDPOINTS.map((endpoint) => endpoint.name)).toEqual([
      'me',
      'contacts/list',
      'contacts/manage',
      'contacts/get',
      'labels/list',
      'labels/manage',
      'custom-fields/list',
      'automations/list',
      'automations/manage',
      'automations/runs',
      'broadcasts/list',
      'broadcasts/recipients',
      'sandbox/receive',
      'chat/templates/list',
      'chat/templates/send',
      'chat/templates/sync',
      'chat/message/status',
      'chat/message/send',
      'chat/message/read',
      'chat/messages/list',
      'chat/conversations/list',
      'chat/conversations/manage',
      'chat/notes/manage',
      'chat/notes/list',
      'chat/media/get',
    ]);
  });

  it('refuses a contract endpoint it has no case for, so every suite that iterates it fails', () => {
    const grown = { ...contract.workspace, notes: { list: contract.workspace.labels.list } };
    expect(() => workspaceEndpoints(grown)).toThrow(
      'tests/workspace/endpoints.ts has no case for workspace.notes.list',
    );
  });
});
