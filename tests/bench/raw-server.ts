/**
 * The benchmark's baseline: plain `node:http`, serving the benchmarked endpoints by calling the product's own
 * service functions on the product's own MikroORM EntityManager (so the SQL, ORM-built or hand-written, cannot
 * drift from the product's), over a pool of the same size as the server's. What it leaves out is what the
 * comparison measures: Express, ts-rest, zod validation, the per-request API-key lookup (keys are resolved once at
 * start-up with the product's own lookup), the rate limiter, request logging and the error envelope machinery.
 *
 * Run as its own process by the benchmark: DATABASE_URL, PORT, POOL_SIZE and SERVER_DIST from the environment.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Caller, CallerContext } from '../../apps/server/src/kit/context.js';

/** The build under test (SERVER_DIST, default apps/server/dist): the product process runs the same one. */
const dist = process.env.SERVER_DIST ?? path.resolve(import.meta.dirname, '../../apps/server/dist');
const fromBuild = <T>(file: string) => import(pathToFileURL(path.join(dist, file)).href) as Promise<T>;
const { createLogger, loadConfig, openDatabase } =
  await fromBuild<typeof import('../../apps/server/src/index.js')>('index.js');
const { authenticateKey } = await fromBuild<typeof import('../../apps/server/src/http/auth.js')>('http/auth.js');
const { apiKeyLookup } = await fromBuild<typeof import('../../apps/server/src/modules/api-keys/api-key.queries.js')>(
  'modules/api-keys/api-key.queries.js',
);
const { listChannels } = await fromBuild<typeof import('../../apps/server/src/modules/channels/channel.service.js')>(
  'modules/channels/channel.service.js',
);
const { resolveChannel } = await fromBuild<typeof import('../../apps/server/src/modules/channels/channel-scope.js')>(
  'modules/channels/channel-scope.js',
);
const { listContacts } = await fromBuild<typeof import('../../apps/server/src/modules/contacts/contact.service.js')>(
  'modules/contacts/contact.service.js',
);
const { upsertLabel } = await fromBuild<typeof import('../../apps/server/src/modules/labels/label.service.js')>(
  'modules/labels/label.service.js',
);
const { conversationContact, listConversations, listMessages } = await fromBuild<
  typeof import('../../apps/server/src/modules/conversations/conversation.service.js')
>('modules/conversations/conversation.service.js');
const { findMessageStatus } = await fromBuild<
  typeof import('../../apps/server/src/modules/messages/message.service.js')
>('modules/messages/message.service.js');

const logger = createLogger('silent');
const database = await openDatabase(
  loadConfig({ DATABASE_URL: process.env.DATABASE_URL, LOG_LEVEL: 'silent' }),
  logger,
  Number(process.env.POOL_SIZE ?? 20),
);

/** Every benchmark key (see bulk-contacts.ts), resolved once by the product's own key lookup. */
const callers = new Map<string, Caller>();
for (const { api_key: key } of await database.orm.em
  .fork()
  .execute<{ api_key: string }[]>('select api_key from bench_keys')) {
  callers.set(key, await authenticateKey(database.orm.em.fork(), apiKeyLookup, key));
}

type Params = Record<string, unknown>;
const routes: Record<string, (ctx: CallerContext, params: Params) => Promise<object>> = {
  '/api/workspace/v1/channels/list': async (ctx) => ({ data: await listChannels(ctx) }),
  '/api/workspace/v1/contacts/list': async (ctx, params) => {
    const channel = await resolveChannel(ctx, params.channelId as string | undefined);
    const query = {
      page: Number(params.page ?? 1),
      limit: Number(params.limit ?? 50),
      search: params.search as string | undefined,
    };
    return listContacts(ctx, channel.id, query);
  },
  '/api/workspace/v1/labels/manage': async (ctx, params) => {
    const channel = await resolveChannel(ctx, params.channelId as string | undefined);
    const { label, created } = await upsertLabel(ctx, channel.id, params as { name: string });
    return {
      message: created ? 'Label created successfully' : 'Label updated successfully',
      data: { id: label.id, channelId: channel.id, name: label.name },
    };
  },
  '/api/workspace/v1/chat/messages/list': async (ctx, params) => {
    const channel = await resolveChannel(ctx, params.channelId as string | undefined);
    const contactId = await conversationContact(ctx, channel, { phone: params.phone as string | undefined });
    return listMessages(ctx, channel.id, {
      page: Number(params.page ?? 1),
      limit: Number(params.limit ?? 50),
      contactId,
    });
  },
  '/api/workspace/v1/chat/conversations/list': async (ctx, params) => {
    const channel = await resolveChannel(ctx, params.channelId as string | undefined);
    return listConversations(ctx, channel.id, {
      page: Number(params.page ?? 1),
      limit: Number(params.limit ?? 50),
      unread: params.unread === true,
      status: params.status as 'open' | undefined,
      assigneeId: params.assigneeId as string | undefined,
    });
  },
  '/api/workspace/v1/chat/message/status': async (ctx, params) => ({
    data: await findMessageStatus(ctx, params.msgid as string),
  }),
};

function reply(res: ServerResponse, status: number, body: object) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const route = routes[req.url ?? ''];
  const caller = callers.get(String(req.headers['x-api-key']));
  if (!route || !caller) return reply(res, route ? 401 : 404, { success: false, error: 'unauthorized', message: 'no' });
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const params = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString()) as Params) : {};
  const ctx: CallerContext = { caller, em: database.orm.em.fork(), log: logger, requestId: '' };
  try {
    reply(res, 200, { success: true, ...(await route(ctx, params)) });
  } catch (error) {
    reply(res, 500, { success: false, error: 'internal', message: (error as Error).message });
  }
}

const server = createServer((req, res) => void handle(req, res));
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('raw baseline listening\n'));
process.on('SIGTERM', () => server.close(() => void database.close().then(() => process.exit(0))));
