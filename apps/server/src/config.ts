import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const url = (protocols: string[]) =>
  z
    .string()
    .url('must be a URL')
    .refine(
      (value) => protocols.some((p) => value.startsWith(`${p}://`)),
      `must start with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    );

const number = () => z.coerce.number({ invalid_type_error: 'must be a number' });
const integer = (min: number, max: number) =>
  number().int('must be an integer').min(min, `must be ${min}..${max}`).max(max, `must be ${min}..${max}`);

/** Express's names for address ranges (proxy-addr), usable in TRUST_PROXY. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isAddressOrCidr = (entry: string) => {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (!family || rest.length) return false;
  return prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
};
const TRUST_PROXY_HELP =
  'must be false, the number of proxies in front of the server (e.g. 1), ' +
  'or their addresses/CIDRs (e.g. 10.0.0.0/8, loopback)';

/**
 * Which X-Forwarded-For hops Express believes (client address for rate limits and sign-in throttling, HTTPS for
 * secure cookies): none, a hop count, or the proxies' addresses. Never `true`: trusting every hop makes the
 * left-most, client-written address the client's, so anyone could pick the address their attempts count against.
 */
const trustProxy = () =>
  z
    .string()
    .default('false')
    .transform((value, ctx): false | number | string[] => {
      const text = value.trim();
      if (text === 'false' || text === '0') return false;
      if (/^\d{1,2}$/.test(text)) return Number(text);
      const entries = text.split(',').map((entry) => entry.trim());
      if (text !== 'true' && entries.every((entry) => PROXY_RANGE_NAMES.has(entry) || isAddressOrCidr(entry)))
        return entries;
      const why =
        text === 'true' ? `${TRUST_PROXY_HELP}; true would trust any X-Forwarded-For a client sends` : TRUST_PROXY_HELP;
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: why });
      return z.NEVER;
    });

const optionalBoolean = () =>
  z
    .enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })
    .transform((value) => value === 'true')
    .optional();

const envSchema = z.object({
  PORT: integer(0, 65535).default(3000),
  DATABASE_URL: url(['postgres', 'postgresql']).optional(),
  REDIS_URL: url(['redis', 'rediss']).optional(),
  SMTP_URL: url(['smtp', 'smtps']).optional(),
  MAIL_FROM: z
    .string()
    .min(3, 'must be an address like "Switchboard <no-reply@example.com>"')
    .default('Switchboard <no-reply@switchboard.local>'),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { errorMap: () => ({ message: `must be one of ${LOG_LEVELS.join(', ')}` }) })
    .default('info'),
  /** Where the embedded PostgreSQL keeps its files when DATABASE_URL is not set. */
  SWITCHBOARD_DATA_DIR: z.string().min(1).default(path.join(REPO_ROOT, '.data')),
  EMBEDDED_PG_PORT: integer(1024, 65535).default(54329),
  /** How long a failing webhook or email keeps being retried. */
  DELIVERY_RETRY_HOURS: number().positive('must be positive').default(72),
  /**
   * Seconds before each retry of a failed webhook or email, in order; the last one repeats until
   * DELIVERY_RETRY_HOURS have passed since the event. Tests shorten it (e.g. `1`).
   */
  DELIVERY_RETRY_SCHEDULE: z
    .string()
    .regex(/^[1-9]\d*(,[1-9]\d*)*$/, 'must be comma-separated whole seconds of at least 1, like 5,30,120')
    .default('5,30,120,600,1800,3600,7200,14400,28800')
    .transform((value) => value.split(',').map(Number)),
  /**
   * The former name of JOB_WORKER, still read when JOB_WORKER is not set; the start-up log warns about it. Before
   * JOB_WORKER, so a bad value is reported under the name the operator wrote.
   */
  DELIVERY_WORKER: optionalBoolean(),
  /**
   * Whether this process runs the job worker: the queued jobs (emails, inbound WhatsApp processing, tasks) and the
   * named workers (dispatchers, schedulers, retention). `false` makes an API-only instance: it still queues jobs,
   * which instances with the worker run.
   */
  JOB_WORKER: z
    .enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })
    .default('true')
    .transform((v) => v === 'true'),
  /** How long one webhook POST may take; a claimed delivery's lease outlives it by a few seconds. */
  WEBHOOK_TIMEOUT_MS: integer(100, 30_000).default(10_000),
  /**
   * Webhook POSTs one instance has in flight at most, over every endpoint; a platform takes at most half, and each
   * endpoint as many as its own answers earn it (up to 64).
   */
  WEBHOOK_CONCURRENCY: integer(2, 4096).default(256),
  /** A webhook endpoint that failed every attempt for this long is disabled and its platform's owner emailed. */
  WEBHOOK_DISABLE_AFTER_HOURS: number().positive('must be positive').default(24),
  /**
   * Local development and tests only: webhooks may use http:// to localhost/127.0.0.1 and reach private, loopback
   * and link-local addresses, and template header samples may be fetched from them. Off, webhook URLs must be
   * https:// to public addresses, as samples must be (server-side request forgery).
   */
  ALLOW_HTTP_WEBHOOKS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((v) => v === 'true'),
  /**
   * Requests a minute per API user in each rate class (the user's specification fixes the defaults of `api_read`,
   * `api_write` and `api_admin_write`); a deployment of its own may grant more.
   */
  RATE_LIMIT_API_READ: integer(1, 1_000_000).default(120),
  RATE_LIMIT_API_WRITE: integer(1, 1_000_000).default(30),
  RATE_LIMIT_API_ADMIN_WRITE: integer(1, 1_000_000).default(20),
  /** The `api_message` rate class (single sends). */
  RATE_LIMIT_API_MESSAGE: integer(1, 1_000_000).default(600),
  /**
   * The send pipeline's budget per channel, messages a second across every instance (Meta's default throughput per
   * phone number is 80): queued sends (automations, scheduled sends, broadcasts) and API sends draw on it alike.
   */
  SEND_RATE_PER_CHANNEL: integer(1, 100_000).default(80),
  /** Sandbox messaging provider: how long after a send it reports the message `sent`, then `delivered`. */
  SANDBOX_SENT_AFTER_MS: integer(0, 600_000).default(1000),
  SANDBOX_DELIVERED_AFTER_MS: integer(0, 600_000).default(3000),
  /** Sandbox: how long after a template is created or edited its review comes back (chat/templates/manage). */
  SANDBOX_TEMPLATE_REVIEW_MS: integer(0, 600_000).default(2000),
  /**
   * Encrypts channel secrets at rest (AES-256-GCM): 32 random bytes in base64 (`openssl rand -base64 32`). Required
   * once a channel uses the WhatsApp Cloud API; every instance needs the same value.
   */
  SECRETS_KEY: z.string().optional(),
  /**
   * Keys SECRETS_KEY replaced, comma-separated: they still decrypt (and verify media links) while `pnpm cli secrets
   * rekey` re-encrypts what they encrypted.
   */
  SECRETS_KEY_PREVIOUS: z
    .string()
    .optional()
    .transform((value) =>
      value
        ?.split(',')
        .map((key) => key.trim())
        .filter(Boolean),
    ),
  /** Meta's Graph API: every WhatsApp Cloud API call goes to `${WHATSAPP_GRAPH_URL}/${WHATSAPP_GRAPH_VERSION}/…`. */
  WHATSAPP_GRAPH_URL: url(['https', 'http']).default('https://graph.facebook.com'),
  WHATSAPP_GRAPH_VERSION: z
    .string()
    .regex(/^v\d+\.\d+$/, 'must look like v23.0')
    .default('v23.0'),
  /** How long one Graph call may take (connect, reply and body). */
  WHATSAPP_GRAPH_TIMEOUT_MS: integer(100, 60_000).default(10_000),
  /** How often each WhatsApp Cloud channel's templates are pulled from Meta; 0 turns the schedule off. */
  TEMPLATE_SYNC_MINUTES: integer(0, 10_080).default(60),
  /** Public base URL used in printed examples and the OpenAPI servers list. */
  PUBLIC_URL: z.string().url('must be a URL').optional(),
  TRUST_PROXY: trustProxy(),
  /** Signs Developer Portal session cookies; every instance needs the same value. Unset: random per process. */
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  SHUTDOWN_TIMEOUT_MS: integer(1, 600_000).default(10_000),

  // Operations. Unset booleans follow the database: the embedded default migrates and seeds the demo, a configured
  // DATABASE_URL does neither unless asked (a one-shot `pnpm cli migrate` / `seed:demo` is the usual way).
  NODE_ENV: z.string().optional(),
  MIGRATE_ON_START: optionalBoolean(),
  DEMO: optionalBoolean(),
  /** Prometheus metrics on a separate listener (keep it off the public network); unset: no metrics listener. */
  METRICS_PORT: integer(0, 65535).optional(),
  /** Comma-separated origins allowed to call the API from a browser (CORS); unset: CORS off. */
  CORS_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().url('must be comma-separated origins like https://app.example.com')))
    .optional(),

  /** Longest a single SQL statement may run before PostgreSQL cancels it (the request gets 503). */
  DB_STATEMENT_TIMEOUT_MS: integer(100, 3_600_000).default(5000),
  /** Longest a request waits for a database connection (pool full or database unreachable) before 503. */
  DB_ACQUIRE_TIMEOUT_MS: integer(100, 600_000).default(5000),
  /**
   * How long a resolved API key stays in the per-process caller cache at most. Changes evict entries as they commit
   * (LISTEN/NOTIFY), so this is only a safety net; 0 turns the cache off (every request looks its key up).
   */
  API_KEY_CACHE_TTL_MS: integer(0, 3_600_000).default(60_000),
});

export type Config = z.infer<typeof envSchema>;

/** Every variable the configuration reads (the README's configuration table lists each, tests/docs checks it). */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape) as (keyof Config)[];

export class ConfigError extends Error {}

/** The only reader of the environment. A bad value stops start-up with one line naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  // Operators have the former name set: it keeps working until they rename it.
  present.JOB_WORKER ??= present.DELIVERY_WORKER;
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  if (parsed.data.NODE_ENV === 'production' && !parsed.data.DATABASE_URL) {
    throw new ConfigError(
      'Invalid configuration: DATABASE_URL is required when NODE_ENV=production (the embedded PostgreSQL is for ' +
        'development)',
    );
  }
  return parsed.data;
}

/** PUBLIC_URL without a trailing slash, else the local address: the base of links this server hands out. */
export const publicBaseUrl = (config: Config) =>
  (config.PUBLIC_URL ?? `http://localhost:${config.PORT}`).replace(/\/+$/, '');

/** Whether this process applies pending migrations before listening (see MIGRATE_ON_START). */
export const migratesOnStart = (config: Config) => config.MIGRATE_ON_START ?? !config.DATABASE_URL;
/** Whether this process loads the demo data into an empty database (see DEMO). */
export const seedsDemo = (config: Config) => config.DEMO ?? !config.DATABASE_URL;
