import type { Express, Response } from 'express';

/**
 * `res.json` for this app, without Express's `res.send` around it: that re-parses and re-formats the Content-Type
 * it just set, looks up ETag and freshness settings for replies that never have either (automatic ETags are off
 * and nothing sets Last-Modified), and copies any body of 1,000 characters or more into a Buffer before writing it;
 * an inbox page (about 20 KB) cost 80 µs more than writing the text itself (docs/benchmarks.md, channels/list and
 * the inbox). The reply is the same: the JSON, its length, `application/json; charset=utf-8` unless a type was set,
 * and no body for HEAD (Node drops it).
 */
export function jsonReplies(app: Express): void {
  app.response.json = function json(this: Response, body: unknown) {
    const text = JSON.stringify(body) ?? '';
    if (!this.get('Content-Type')) this.setHeader('Content-Type', 'application/json; charset=utf-8');
    this.setHeader('Content-Length', Buffer.byteLength(text));
    this.end(text);
    return this;
  };
}
