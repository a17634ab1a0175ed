import type { NextFunction, Request, Response } from 'express';

/**
 * On every reply: replies carry secrets (a webhook secret after a create or rotation) and personal data (contacts),
 * so no browser or proxy cache may keep them; and no browser may sniff a reply into another type (Meta's
 * verification echoes a caller-chosen challenge as text/plain). Portal assets set their own long-lived caching.
 */
export function replyHeaders(_req: Request, res: Response, next: NextFunction) {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
}
