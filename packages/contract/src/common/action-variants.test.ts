import { describe, expect, it } from 'vitest';
import { contract } from '../index.js';
import { paramsObject } from './field-rules.js';
import type { ParamsVariants } from './variants.js';

type Parsed = { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } };
const issues = (result: Parsed) => result.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);

/** Both routes of an endpoint: the POST body and the GET query check the same variants. */
const routesOf = (endpoint: { post: { body: unknown }; get: { query: unknown } }) =>
  [endpoint.post.body, endpoint.get.query] as { safeParse(input: unknown): Parsed }[];

const channelId = '6d1f0c7e-3b52-4a8e-9c41-2f7d5b8a9e10';
const automationId = '4e7a9c1b-6f2d-4b3e-8d5a-9c0e1f3a7b28';
const platformId = '0b6e2f4a-8c1d-4e3f-9a7b-5d2c8e1f6a90';
const url = 'https://hooks.example.com/x';

describe('action variants of manage endpoints', () => {
  it('name a field the action needs, and one of another action, on POST and GET alike', () => {
    for (const schema of routesOf(contract.workspace.automations.manage)) {
      expect(issues(schema.safeParse({ channelId, action: 'create', name: 'Welcome' }))).toEqual([
        'trigger: is required to create an automation',
        'actions: is required to create an automation',
      ]);
      expect(issues(schema.safeParse({ channelId, action: 'delete', automationId, name: 'x' }))).toEqual([
        'name: is not a parameter of action "delete"',
      ]);
      expect(schema.safeParse({ channelId, action: 'update', automationId, status: 'paused' }).success).toBe(true);
    }
  });

  it('run the rules across fields once the action’s own fields are valid', () => {
    for (const schema of routesOf(contract.workspace.chat.notes.manage))
      expect(issues(schema.safeParse({ channelId, action: 'create', text: 'Hi' }))).toEqual([
        'contactId: is required (or phone)',
      ]);
  });

  it('state each action’s required fields for the OpenAPI and the tools', () => {
    const body = contract.workspace.broadcasts.manage.post.body;
    const { variants } = (paramsObject(body) as { metaOpenApi?: { variants?: ParamsVariants } }).metaOpenApi ?? {};
    expect(variants?.discriminator).toBe('action');
    expect(variants?.forms.create?.required).toEqual(['name', 'templateName', 'audience']);
    expect(variants?.forms.cancel).toEqual({ required: ['broadcastId'], optional: [] });
  });

  it('read a request without `action` as the action its deprecated form asks for', () => {
    for (const schema of routesOf(contract.platform.webhooks.manage)) {
      const data = (input: object) => (schema.safeParse(input) as Parsed & { data?: unknown }).data;
      expect(data({ platformId, url, events: ['ticket.closed'] })).toMatchObject({ action: 'create', url });
      expect(data({ platformId, endpointId: automationId, delete: true })).toEqual({
        platformId,
        action: 'delete',
        endpointId: automationId,
      });
      expect(data({ platformId, endpointId: automationId, rotateSecret: true, enabled: false })).toEqual({
        platformId,
        action: 'update',
        endpointId: automationId,
        enabled: false,
        rotateSecret: true,
      });
      expect(data({ platformId, redeliver: automationId })).toEqual({
        platformId,
        action: 'redeliver',
        deliveryId: automationId,
      });
      expect(issues(schema.safeParse({ platformId, endpointId: automationId, delete: true, url }))).toEqual([
        'url: cannot be combined with delete',
      ]);
      // Beside an `action`, a field only the earlier forms take is refused.
      expect(
        issues(schema.safeParse({ platformId, action: 'update', endpointId: automationId, delete: true })),
      ).toEqual(['delete: is not a parameter of action "update"']);
    }
  });

  it('publish an action’s field rules and the deprecated forms as forms of their own', () => {
    const variantsOf = (body: Parameters<typeof paramsObject>[0]) =>
      (paramsObject(body) as { metaOpenApi?: { variants?: ParamsVariants } }).metaOpenApi?.variants;
    expect(variantsOf(contract.workspace.chat.notes.manage.post.body)?.forms.create).toEqual({
      required: ['text'],
      optional: ['contactId', 'phone'],
      anyOf: [{ required: ['contactId'] }, { required: ['phone'] }],
    });
    expect(
      variantsOf(contract.platform.webhooks.manage.post.body)?.deprecatedForms?.map((form) => form.required),
    ).toEqual([['url', 'events'], ['endpointId'], ['redeliver']]);
  });
});
