import { LockMode, UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  AUTOMATION_MAX_DEFINITION_BYTES,
  AUTOMATIONS_PER_CHANNEL,
  type Automation,
  type AutomationManageValues,
  type AutomationRun,
} from '@switchboard/contract';
import type { CallerContext } from '../../kit/context.js';
import { NotFoundError, ValidationError } from '../../kit/errors.js';
import { offsetOf, paginationOf } from '../../kit/pagination.js';
import { assertInChannel, Channel, type ScopedChannel } from '../channels/index.js';
import { automationIssues, type AutomationDefinition } from './automation-checks.js';
import { AutomationRun as AutomationRunEntity } from './automation-run.entity.js';
import { Automation as AutomationEntity } from './automation.entity.js';

const toAutomation = (a: AutomationEntity): Automation => ({
  id: a.id,
  name: a.name,
  status: a.status,
  executionCount: a.executionCount,
  trigger: a.trigger ?? null,
  conditions: a.conditions,
  actions: a.actions,
  lastRunAt: a.lastRunAt?.toISOString() ?? null,
  createdAt: a.createdAt.toISOString(),
});

export const toRun = (r: AutomationRunEntity): AutomationRun => ({
  id: r.id,
  automationId: r.automationId,
  event: r.event,
  eventId: r.eventId,
  contactId: r.contactId,
  outcome: r.outcome,
  steps: r.steps,
  createdAt: r.createdAt.toISOString(),
});

/** automations/list: newest first, a page of the channel's automations (of one status when given). */
export async function listAutomations(
  ctx: CallerContext,
  channelId: string,
  query: { page: number; limit: number; status?: Automation['status']; automationId?: string },
) {
  const [automations, total] = await ctx.em.findAndCount(
    AutomationEntity,
    {
      channel: channelId,
      ...(query.status ? { status: query.status } : {}),
      ...(query.automationId ? { id: query.automationId } : {}),
    },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit: query.limit, offset: offsetOf(query) },
  );
  return { data: automations.map(toAutomation), pagination: paginationOf(query.page, query.limit, total) };
}

/** automations/runs: newest first, of the channel or of one automation in it. */
export async function listRuns(
  ctx: CallerContext,
  channelId: string,
  query: { page: number; limit: number; automationId?: string },
) {
  const where = { channel: channelId, ...(query.automationId ? { automationId: query.automationId } : {}) };
  const [runs, total] = await ctx.em.findAndCount(AutomationRunEntity, where, {
    orderBy: { createdAt: 'desc', id: 'desc' },
    limit: query.limit,
    offset: offsetOf(query),
  });
  return { data: runs.map(toRun), pagination: paginationOf(query.page, query.limit, total) };
}

const automationNotFound = (id: string) => () =>
  new NotFoundError('automation_not_found', `No automation ${id} in this channel.`);

/** A definition's size as stored: its conditions and actions as JSON, in UTF-8 bytes. */
const definitionBytes = ({ conditions, actions }: AutomationDefinition) =>
  Buffer.byteLength(JSON.stringify({ conditions, actions }));

async function checkDefinition(
  tx: EntityManager,
  channelId: string,
  name: string,
  definition: AutomationDefinition | null,
  ownId?: string,
) {
  if (definition && definitionBytes(definition) > AUTOMATION_MAX_DEFINITION_BYTES)
    throw ValidationError.field(
      'actions',
      `conditions and actions together are ${definitionBytes(definition)} bytes as JSON; the limit is ` +
        `${AUTOMATION_MAX_DEFINITION_BYTES} bytes (32 KB)`,
    );
  const issues = definition ? await automationIssues(tx, channelId, definition) : [];
  const sameName = await tx.findOne(AutomationEntity, { channel: channelId, name }, { fields: ['id'] });
  if (sameName && sameName.id !== ownId)
    issues.unshift({ field: 'name', problem: `an automation named "${name}" exists in this channel` });
  if (issues.length) throw new ValidationError(issues);
}

async function lockedAutomation(ctx: CallerContext, tx: EntityManager, channel: ScopedChannel, id: string) {
  const found = await tx.findOne(AutomationEntity, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  assertInChannel(ctx, channel, found?.channel.id, automationNotFound(id));
  return found!;
}

/** At most AUTOMATIONS_PER_CHANNEL, under a lock on the channel's row so parallel creates cannot pass it together. */
async function assertRoomIn(tx: EntityManager, channelId: string) {
  await tx.findOne(Channel, channelId, { lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] });
  if ((await tx.count(AutomationEntity, { channel: channelId })) >= AUTOMATIONS_PER_CHANNEL)
    throw ValidationError.field(
      'action',
      `a channel has at most ${AUTOMATIONS_PER_CHANNEL} automations; delete one before creating another`,
    );
}

/** Two creates of one name racing past the check: the unique index decides, and the loser gets the same 400. */
async function flushNamed(tx: EntityManager, name: string) {
  try {
    await tx.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException)
      throw ValidationError.field('name', `an automation named "${name}" exists in this channel`);
    throw error;
  }
}

/** automations/manage: create, update (the fields given) or delete, checked against the channel, in one transaction. */
export async function manageAutomation(
  ctx: CallerContext,
  channel: ScopedChannel,
  params: AutomationManageValues,
): Promise<{ automation: Automation; message: string }> {
  return ctx.em.transactional(async (tx) => {
    if (params.action === 'create') {
      await assertRoomIn(tx, channel.id);
      const definition = { trigger: params.trigger, conditions: params.conditions ?? [], actions: params.actions };
      await checkDefinition(tx, channel.id, params.name, definition);
      const automation = tx.create(AutomationEntity, {
        channel: channel.id,
        name: params.name,
        status: params.status ?? 'active',
        ...definition,
      });
      await flushNamed(tx, params.name);
      return { automation: toAutomation(automation), message: 'Automation created successfully' };
    }
    const automation = await lockedAutomation(ctx, tx, channel, params.automationId);
    if (params.action === 'delete') {
      const view = toAutomation(automation);
      await tx.remove(automation).flush();
      return { automation: view, message: 'Automation deleted successfully' };
    }
    const name = params.name ?? automation.name;
    const trigger = params.trigger ?? automation.trigger;
    if (trigger) {
      const definition = {
        trigger,
        conditions: params.conditions ?? automation.conditions,
        actions: params.actions ?? automation.actions,
      };
      if (definition.actions.length === 0)
        throw ValidationError.field('actions', 'is required: this automation has none yet');
      await checkDefinition(tx, channel.id, name, definition, automation.id);
      tx.assign(automation, definition);
    } else if (params.conditions || params.actions) {
      throw ValidationError.field('trigger', 'is required: this automation has none yet');
    } else {
      await checkDefinition(tx, channel.id, name, null, automation.id);
    }
    tx.assign(automation, { name, status: params.status ?? automation.status });
    await flushNamed(tx, name);
    return { automation: toAutomation(automation), message: 'Automation updated successfully' };
  });
}
