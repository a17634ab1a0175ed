import { WEBHOOK_EVENT_TYPES } from '@switchboard/contract';
import type { AssetUrls } from '../assets.js';
import { html } from '../html.js';
import { PORTAL_PATH } from '../session.js';
import { page, type Viewer } from './layout.js';

/** What the page's live tail reads: the signed-in user's event stream, through the portal session. */
export const EVENTS_STREAM_PATH = '/events/stream';

/**
 * The live event stream's page: how to open it from code, and a live tail of the signed-in user's own stream (the
 * channels they are authorized for), which the portal script fills as events arrive.
 */
export function eventsPage(assets: AssetUrls, viewer: Viewer, serverUrl: string): string {
  const curl = `curl -N ${serverUrl}/api/workspace/v1/events/stream -H "X-API-Key: $KEY"`;
  return page({
    title: 'Live events',
    assets,
    viewer,
    current: 'events',
    body: html`<h1>Live events</h1>
      <p>Every event of your channels as it happens, as Server-Sent Events: the same bodies webhooks deliver
        (${WEBHOOK_EVENT_TYPES.map((type, i) => html`${i ? ', ' : ''}<code>${type}</code>`)}). Reconnect with
        <code>Last-Event-ID</code> to replay what you missed (24 hours). With your key:</p>
      <pre class="code"><code>${curl}</code></pre>
      <p>or, with the SDK, <code>for await (const event of sb.events.stream()) …</code></p>
      <h2>Live tail</h2>
      <p id="event-tail-status" class="muted">Connecting…</p>
      <ol id="event-tail" class="event-tail" data-stream="${PORTAL_PATH}${EVENTS_STREAM_PATH}" reversed></ol>`,
  });
}
