import { describe, expect, it } from 'vitest';
import { contract } from '../index.js';

const issues = (result: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) =>
  result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);

/** Both routes of an endpoint: the POST body and the GET query enforce the same field rules. */
const routesOf = (endpoint: { post: { body: unknown }; get: { query: unknown } }) =>
  [endpoint.post.body, endpoint.get.query] as {
    safeParse(input: unknown): {
      success: boolean;
      data?: unknown;
      error?: { issues: { path: (string | number)[]; message: string }[] };
    };
  }[];

const platformId = '6d1f0c7e-3b52-4a8e-9c41-2f7d5b8a9e10';
const planId = '4e7a9c1b-6f2d-4b3e-8d5a-9c0e1f3a7b28';
const userId = '8a4c2e6f-1d3b-4e5a-9f70-3b6d8c1e2a94';

describe('field rules in the contract', () => {
  it('refuse a ticket creation without its fields and message options without a message, on POST and GET alike', () => {
    for (const schema of routesOf(contract.platform.tickets.manage)) {
      expect(issues(schema.safeParse({ platformId, title: 'No email', status: 'closed', isInternal: true }))).toEqual([
        'email: is required to create a ticket (no ticketId given)',
        'description: is required to create a ticket (no ticketId given)',
        'status: a new ticket starts open; change the status with an update',
        'isInternal: only applies together with message',
      ]);
      expect(schema.safeParse({ platformId, ticketId: 'T-1', status: 'closed' }).success).toBe(true);
    }
  });

  it('run only once every field is valid on its own, so a malformed field is reported alone', () => {
    expect(issues(contract.platform.tickets.manage.post.body.safeParse({ platformId, email: 'not-an-email' }))).toEqual(
      ['email: must be an email address'],
    );
  });

  it('hand handlers addonId whichever name the caller used, and refuse two different ids', () => {
    for (const schema of routesOf(contract.platform.addon.manage)) {
      expect(schema.safeParse({ platformId, userId, planId }).data).toEqual({
        platformId,
        userId,
        addonId: planId,
        billingCycle: 'monthly',
        quantity: 1,
      });
      expect(issues(schema.safeParse({ platformId, userId }))).toEqual([
        'addonId: is required (planId is accepted as an alias)',
      ]);
      expect(issues(schema.safeParse({ platformId, userId, addonId: planId, planId: userId }))).toEqual([
        'planId: is an alias of addonId and must match it when both are given',
      ]);
    }
  });

  it('keep parameters strict and the required sets for the OpenAPI on both routes', () => {
    for (const schema of routesOf(contract.workspace.labels.delete)) {
      expect(issues(schema.safeParse({ serach: 'x', name: 'vip' }))).toEqual([
        `: Unrecognized key(s) in object: 'serach'`,
      ]);
      expect(issues(schema.safeParse({}))).toEqual(['name: is required (or labelId)']);
      expect((schema as { metaOpenApi?: unknown }).metaOpenApi).toEqual({
        anyOf: [{ required: ['name'] }, { required: ['labelId'] }],
      });
    }
  });
});
