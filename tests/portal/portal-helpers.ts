import { randomBytes } from 'node:crypto';
import type { SeedFile } from '@switchboard/server';
import type { TestServer } from '../helpers/server.js';

export const PASSWORD = 'correct horse battery';
export const OTHER_PASSWORD = 'another secret phrase';

export interface PortalTenant {
  /** settings:api, platform-level access and a password. */
  devEmail: string;
  /** A password but no settings:api. */
  plainEmail: string;
  /** Exists on both platforms with the same password: sign-in must ask which platform. */
  sharedEmail: string;
  domainA: string;
  domainB: string;
  devId: string;
  /** devEmail on platform B: same email, OTHER_PASSWORD, also settings:api. */
  devBId: string;
  channelId: string;
  platformAId: string;
  /** An add-on plan of platform A. */
  addonId: string;
  /** A ticket of platform A. */
  ticketId: string;
}

/** Two platforms whose users exercise every sign-in rule: the permission, a shared email, the same email twice. */
export async function createPortalTenant(server: TestServer): Promise<PortalTenant> {
  const tag = randomBytes(4).toString('hex');
  const devEmail = `dev-${tag}@example.com`;
  const plainEmail = `plain-${tag}@example.com`;
  const sharedEmail = `shared-${tag}@example.com`;
  const domainA = `a-${tag}.example.com`;
  const domainB = `b-${tag}.example.com`;
  const api = ['settings:api'];
  const file: SeedFile = {
    platforms: [
      { ref: 'a', name: 'Alpha Co', domain: domainA },
      { ref: 'b', name: 'Beta Co', domain: domainB },
    ],
    users: [
      // Platform-level access too: the webhooks pages follow webhooks/manage's rules.
      {
        ref: 'dev',
        platform: 'a',
        email: devEmail,
        name: 'Dana Developer',
        platformAccess: true,
        permissions: api,
        password: PASSWORD,
      },
      { ref: 'plain', platform: 'a', email: plainEmail, name: 'Pat Plain', password: PASSWORD },
      { ref: 'sharedA', platform: 'a', email: sharedEmail, name: 'Sam A', permissions: api, password: PASSWORD },
      {
        ref: 'devB',
        platform: 'b',
        email: devEmail,
        name: 'Dana at Beta',
        platformAccess: true,
        permissions: api,
        password: OTHER_PASSWORD,
      },
      { ref: 'sharedB', platform: 'b', email: sharedEmail, name: 'Sam B', permissions: api, password: PASSWORD },
    ],
    channels: [{ ref: 'main', platform: 'a', name: 'Alpha Main', phone: '15550001111', users: ['dev'] }],
    plans: [{ ref: 'seats', platform: 'a', name: 'Extra seats', itemType: 'addon', prices: { monthly: 5 } }],
    tickets: [{ ref: 'help', platform: 'a', email: plainEmail, title: 'Help', description: 'Please help' }],
  };
  const ids = await server.seed(file);
  return {
    devEmail,
    plainEmail,
    sharedEmail,
    domainA,
    domainB,
    devId: ids.users!.dev!.id,
    devBId: ids.users!.devB!.id,
    channelId: ids.channels!.main!,
    platformAId: ids.platforms!.a!,
    addonId: ids.plans!.seats!,
    ticketId: ids.tickets!.help!.id,
  };
}

/** Form fields; a list becomes the field repeated. */
export type Form = Record<string, string | string[]>;

export interface PortalReply {
  status: number;
  headers: Headers;
  text: string;
  setCookies: string[];
}

/** A browser stand-in for HTTP-level tests: keeps cookies, never follows redirects, reads CSRF tokens from forms. */
export class PortalAgent {
  private readonly cookies = new Map<string, string>();

  constructor(
    private readonly baseUrl: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  async request(
    path: string,
    init: { method?: string; form?: Form; headers?: Record<string, string> } = {},
  ): Promise<PortalReply> {
    const headers: Record<string, string> = { ...this.extraHeaders, ...init.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader();
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      // A list is sent as the field repeated, as a browser sends checked checkboxes of one name.
      body = new URLSearchParams(
        Object.entries(init.form).flatMap(([name, value]) =>
          [value].flat().map((one): [string, string] => [name, one]),
        ),
      ).toString();
    }
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    const setCookies = response.headers.getSetCookie();
    for (const cookie of setCookies) {
      const [pair] = cookie.split(';');
      const [name, ...value] = pair!.split('=');
      if (/expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value.join('='));
    }
    return { status: response.status, headers: response.headers, text: await response.text(), setCookies };
  }

  get(path: string) {
    return this.request(path);
  }

  post(path: string, form: Form) {
    return this.request(path, { form });
  }

  /** The `_csrf` value of the first form on a page. */
  static csrf(html: string): string {
    const match = /name="_csrf" value="([^"]+)"/.exec(html);
    if (!match) throw new Error('no CSRF field on the page');
    return match[1]!;
  }

  async signIn(email: string, password: string, extra: Record<string, string> = {}): Promise<PortalReply> {
    const page = await this.get('/developer/sign-in');
    return this.post('/developer/sign-in', { _csrf: PortalAgent.csrf(page.text), email, password, ...extra });
  }

  /** The Cookie header this agent sends, for a request made outside it (the Live events tail's stream). */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  hasCookie(name: string): boolean {
    return this.cookies.has(name);
  }
}
