import type { Redis } from 'ioredis';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { rehashPassword } from '../modules/users/index.js';
import { asyncRoute, type PortalContext } from './portal-context.js';
import {
  ACCOUNT_FAILURES,
  credentialChecker,
  loadPortalUser,
  SIGN_IN_ATTEMPTS,
  signInLimiter,
} from './sign-in.service.js';
import { csrfToken, PORTAL_PATH, signInSession, signOutSession } from './session.js';
import { signInPage, type SignInView } from './views/auth.js';

const signInForm = z.object({
  email: z.string().trim().toLowerCase().min(1).max(320),
  password: z.string().min(1).max(1024),
  platform: z.string().trim().max(253).optional(),
});

/** The same words for an unknown email and a wrong password, so the reply never tells which one it was. */
const WRONG_CREDENTIALS = 'The email or password is incorrect.';

function minutes(seconds: number): string {
  const m = Math.ceil(seconds / 60);
  return m === 1 ? '1 minute' : `${m} minutes`;
}

interface SignIn {
  render: (req: Request, res: Response, status: number, view: Omit<SignInView, 'csrfToken'>) => unknown;
  perAddress: ReturnType<typeof signInLimiter>;
  perAccount: ReturnType<typeof signInLimiter>;
  checkCredentials: ReturnType<typeof credentialChecker>;
}

function signIn(ctx: PortalContext, { render, perAddress, perAccount, checkCredentials }: SignIn) {
  return asyncRoute(async (req, res) => {
    const form = signInForm.safeParse(req.body);
    if (!form.success) {
      const email = typeof req.body?.email === 'string' ? req.body.email : undefined;
      return render(req, res, 400, { email, error: 'Enter your email and password.' });
    }
    const { email, password, platform } = form.data;
    // Counted per client address and email (one address guessing one account is stopped without locking its
    // owner out from everywhere else), then per account (guessing from many addresses is stopped too). An email
    // without an account counts like one, so the reply never tells them apart. `req.ip` is the client address
    // as TRUST_PROXY allows it to be read from X-Forwarded-For.
    const addressKey = `${req.ip}|${email}`;
    const retryAfter = (await perAddress.attempt(addressKey)) || (await perAccount.attempt(email));
    if (retryAfter > 0) {
      res.setHeader('Retry-After', String(retryAfter));
      return render(req, res, 429, {
        email,
        error: `Too many failed sign-in attempts. Try again in ${minutes(retryAfter)}.`,
      });
    }
    const outcome = await checkCredentials(ctx.em.fork(), { email, password, platformDomain: platform || undefined });
    if (outcome.status === 'invalid') {
      return render(req, res, 401, {
        email,
        error: WRONG_CREDENTIALS,
        askPlatform: Boolean(platform),
        platformDomain: platform,
      });
    }
    if (outcome.status === 'ambiguous') {
      return render(req, res, 400, {
        email,
        askPlatform: true,
        error: 'Enter the domain of the platform you want to open.',
      });
    }
    if (!outcome.platformActive) {
      return render(req, res, 403, { email, error: 'This platform is inactive: its users cannot sign in.' });
    }
    await Promise.all([perAddress.reset(addressKey), perAccount.refund(email)]);
    const service = { em: ctx.em.fork() };
    if (outcome.rehash) await rehashPassword(service, outcome.userId, password);
    const user = await loadPortalUser(service, outcome.userId);
    if (!user) return render(req, res, 401, { email, error: WRONG_CREDENTIALS });
    await signInSession(req, user);
    req.log?.info({ userId: outcome.userId }, 'portal sign-in');
    res.redirect(303, `${PORTAL_PATH}/keys`);
  });
}

export function authRoutes(ctx: PortalContext, redis: Redis | undefined): Router {
  const router = Router();
  const checkCredentials = credentialChecker();
  const perAddress = signInLimiter(SIGN_IN_ATTEMPTS, 'sb:rl:portal-sign-in', redis);
  const perAccount = signInLimiter(ACCOUNT_FAILURES, 'sb:rl:portal-sign-in-account', redis);

  const render = (req: Request, res: Response, status: number, view: Omit<SignInView, 'csrfToken'>) =>
    res.status(status).send(signInPage(ctx.assets, { ...view, csrfToken: csrfToken(req) }));

  router.get('/', (req, res) => res.redirect(303, `${PORTAL_PATH}/${req.portal ? 'keys' : 'sign-in'}`));

  router.get('/sign-in', (req, res) => {
    if (req.portal) return res.redirect(303, `${PORTAL_PATH}/keys`);
    render(req, res, 200, { notice: req.query['signed-out'] === '1' ? 'You have signed out.' : undefined });
  });

  router.post('/sign-in', signIn(ctx, { render, perAddress, perAccount, checkCredentials }));

  router.post(
    '/sign-out',
    asyncRoute(async (req, res) => {
      await signOutSession(req, res);
      res.redirect(303, `${PORTAL_PATH}/sign-in?signed-out=1`);
    }),
  );

  return router;
}
