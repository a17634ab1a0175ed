import { createClient } from '@switchboard/client';

/** The client every example uses: the server root and an API key (Developer Portal → Generate API Key). */
export const sb = createClient({
  baseUrl: process.env.SWITCHBOARD_URL ?? 'http://localhost:3000',
  apiKey: process.env.SWITCHBOARD_API_KEY ?? '',
  appInfo: { name: 'switchboard-examples', version: '1.0.0' },
});
