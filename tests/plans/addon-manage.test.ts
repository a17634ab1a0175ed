import { randomUUID } from 'node:crypto';
import { describe, expect } from 'vitest';
import { sql } from '../helpers/database.js';
import { expectError, expectInvalid } from '../helpers/expect.js';
import { test as base } from '../helpers/test.js';
import { operatorKeys } from '../helpers/operators.js';

const test = base
  .extend('plans', { scope: 'file' }, async ({ server, acme }) => {
    const extra = await server.seed({
      plans: [
        {
          ref: 'storage',
          platform: acme.platformId,
          name: 'Storage',
          itemType: 'addon',
          prices: { monthly: 19.99, quarterly: 0.1 },
          currency: 'EUR',
        },
        {
          ref: 'retired',
          platform: acme.platformId,
          name: 'Retired',
          itemType: 'addon',
          prices: { monthly: 1 },
          isActive: false,
        },
        { ref: 'whale', platform: acme.platformId, name: 'Whale', itemType: 'addon', prices: { monthly: 5_000_000 } },
      ],
      subscriptions: [{ user: acme.memberId, plan: acme.ids.plans!.pro!, status: 'cancelled' }],
    });
    return { ...acme.ids.plans!, ...extra.plans! } as Record<string, string>;
  })
  .extend('nextKey', { scope: 'file' }, ({ server, acme }) => operatorKeys(server, acme.platformId))
  .extend(
    'manage',
    ({ server, acme, nextKey }) =>
      (params: Record<string, unknown>) =>
        // Parameters are built loosely on purpose: several cases send what the contract would refuse to compile.
        server
          .client(nextKey())
          .platform.addon.manage({ platformId: acme.platformId, userId: acme.ownerId, ...params } as never),
  )
  .extend(
    'rowsOf',
    ({ server }) =>
      (transactionId: string) =>
        Promise.all([
          sql(server.databaseUrl, 'select * from transactions where id = $1', [transactionId]),
          sql(server.databaseUrl, 'select * from user_addons where transaction_id = $1', [transactionId]),
        ]),
  );

describe('POST /api/platform/v1/addon/manage', () => {
  test('creates a completed transaction (price × quantity) and an active add-on record', async ({
    acme,
    plans,
    manage,
    rowsOf,
  }) => {
    const reply = await manage({ addonId: plans.seats, billingCycle: 'annual', quantity: 3 });
    expect(reply).toEqual({
      success: true,
      data: {
        addonId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        transactionId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      },
      message: 'Addon assigned successfully',
    });
    const [[transaction], [addon]] = await rowsOf(reply.data.transactionId);
    expect(transaction).toMatchObject({
      platform_id: acme.platformId,
      user_id: acme.ownerId,
      plan_id: plans.seats,
      billing_cycle: 'annual',
      quantity: 3,
      amount: '150.00',
      currency: 'USD',
      status: 'completed',
    });
    expect(addon).toMatchObject({
      id: reply.data.addonId,
      user_id: acme.ownerId,
      plan_id: plans.seats,
      billing_cycle: 'annual',
      quantity: 3,
      status: 'active',
    });
  });

  test('computes amounts as exact decimals in the plan’s currency, and defaults to monthly × 1', async ({
    plans,
    manage,
    rowsOf,
  }) => {
    const tenCents = await manage({ addonId: plans.storage, billingCycle: 'quarterly', quantity: 3 });
    expect((await rowsOf(tenCents.data.transactionId))[0][0]).toMatchObject({ amount: '0.30', currency: 'EUR' });
    const defaults = await manage({ addonId: plans.storage });
    expect((await rowsOf(defaults.data.transactionId))[0][0]).toMatchObject({
      amount: '19.99',
      billing_cycle: 'monthly',
      quantity: 1,
    });
  });

  test('accepts planId as an alias of addonId, and over GET', async ({
    server,
    acme,
    plans,
    nextKey,
    manage,
    rowsOf,
  }) => {
    const viaAlias = await manage({ planId: plans.seats, billingCycle: 'onetime' });
    expect((await rowsOf(viaAlias.data.transactionId))[0][0]).toMatchObject({ plan_id: plans.seats, amount: '20.00' });
    const query = new URLSearchParams({
      platformId: acme.platformId,
      userId: acme.ownerId,
      addonId: plans.seats!,
      quantity: '2',
    });
    const viaGet = await server.http.get(`/api/platform/v1/addon/manage?${query}`, {
      headers: { 'X-API-Key': nextKey() },
    });
    expect(viaGet.status).toBe(200);
    expect((await rowsOf(viaGet.data.data.transactionId))[0][0]).toMatchObject({ quantity: 2, amount: '10.00' });
  });

  test('needs addonId (or planId), and the two must agree', async ({ plans, manage }) => {
    await expectInvalid(manage({}), 'addonId', 'is required \\(planId is accepted as an alias\\)');
    await expectInvalid(manage({ addonId: plans.seats, planId: plans.storage }), 'planId', 'must match');
    await expectInvalid(manage({ addonId: 'seats' }), 'addonId', 'must be a plan id');
    await expectInvalid(manage({ userId: 'nobody' }), 'userId', 'must be a user id');
  });

  test('404 user_not_found for a user outside the platform', async ({ globex, plans, manage }) => {
    await expectError(manage({ userId: globex.ownerId, addonId: plans.seats }), 404, 'user_not_found');
    await expectError(manage({ userId: randomUUID(), addonId: plans.seats }), 404, 'user_not_found');
  });

  test('404 addon_not_found for a base plan, another platform’s add-on or an unknown id', async ({
    globex,
    plans,
    manage,
  }) => {
    await expectError(manage({ addonId: plans.pro }), 404, 'addon_not_found');
    await expectError(manage({ addonId: globex.ids.plans!.seats }), 404, 'addon_not_found');
    await expectError(manage({ addonId: randomUUID() }), 404, 'addon_not_found');
    await expectInvalid(manage({ addonId: plans.retired }), 'addonId', 'inactive');
  });

  test('400 no_active_subscription when the user has no active base plan (none, or only a cancelled one)', async ({
    acme,
    plans,
    manage,
  }) => {
    const admin = acme.ids.users!.admin!.id;
    await expectError(
      manage({ userId: admin, addonId: plans.seats }),
      400,
      'no_active_subscription',
      /no active base subscription/,
    );
    await expectError(manage({ userId: acme.memberId, addonId: plans.seats }), 400, 'no_active_subscription');
  });

  test('400 for a billing cycle the add-on has no price for, listing the available ones', async ({ plans, manage }) => {
    await expectInvalid(
      manage({ addonId: plans.seats, billingCycle: 'quarterly' }),
      'billingCycle',
      'no quarterly price; available cycles: monthly, annual, onetime',
    );
    await expectInvalid(
      manage({ addonId: plans.seats, billingCycle: 'weekly' }),
      'billingCycle',
      'must be one of monthly, quarterly, annual, onetime',
    );
  });

  test('400 for a quantity that is not a positive integer or makes the amount overflow', async ({ plans, manage }) => {
    await expectInvalid(manage({ addonId: plans.seats, quantity: 0 }), 'quantity', 'at least 1');
    await expectInvalid(manage({ addonId: plans.seats, quantity: 1.5 }), 'quantity', 'integer');
    await expectInvalid(manage({ addonId: plans.whale, quantity: 10_000 }), 'quantity', 'exceed 9999999999.99');
  });

  test('is atomic: when the add-on insert fails, no transaction is left behind', async ({
    server,
    plans,
    manage,
    rowsOf,
  }) => {
    const count = async () =>
      (
        await sql<{ n: number }>(
          server.databaseUrl,
          'select (select count(*) from transactions)::int + (select count(*) from user_addons)::int as n',
        )
      )[0]!.n;
    const before = await count();
    await sql(
      server.databaseUrl,
      `create function refuse_addon() returns trigger language plpgsql as $$ begin raise exception 'add-on insert ` +
        `refused by test'; end $$`,
    );
    await sql(
      server.databaseUrl,
      'create trigger refuse_addon before insert on user_addons for each row execute function refuse_addon()',
    );
    try {
      await expectError(manage({ addonId: plans.seats, quantity: 4 }), 500, 'internal_error');
      expect(await count()).toBe(before);
      expect(await sql(server.databaseUrl, 'select 1 from transactions where quantity = 4')).toHaveLength(0);
    } finally {
      await sql(server.databaseUrl, 'drop trigger refuse_addon on user_addons');
      await sql(server.databaseUrl, 'drop function refuse_addon()');
    }
    const after = await manage({ addonId: plans.seats, quantity: 4 });
    expect((await rowsOf(after.data.transactionId))[1]).toHaveLength(1);
  });
});
