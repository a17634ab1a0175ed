import type { PostmanEnvironment } from '@switchboard/openapi';

/** The downloads, rendered once per server URL. */
export interface ApiDocuments {
  openApiJson: string;
  openApiYaml: string;
  postmanJson: string;
  /** The collection's environment as `pnpm export:api` writes it (every id empty), before a user's ids go in. */
  postmanEnvironment: PostmanEnvironment;
  /** The security scheme carrying `X-API-Key`, which the reference prefills with the user's key. */
  apiKeyScheme: string | undefined;
}

interface SecuritySchemeLike {
  type?: string;
  in?: string;
  name?: string;
}

function apiKeySchemeOf(doc: { components?: { securitySchemes?: Record<string, unknown> } }): string | undefined {
  const schemes = Object.entries(doc.components?.securitySchemes ?? {}) as [string, SecuritySchemeLike][];
  return schemes.find(
    ([, s]) => s.type === 'apiKey' && s.in === 'header' && s.name?.toLowerCase() === 'x-api-key',
  )?.[0];
}

async function render(serverUrl: string): Promise<ApiDocuments> {
  // Loaded on first use: the exporters (openapi-to-postmanv2 and friends) are heavy and most processes never need them.
  const { buildOpenApi, buildPostmanCollection, buildPostmanEnvironment, toYaml } =
    await import('@switchboard/openapi');
  const doc = buildOpenApi({ serverUrl });
  const collection = await buildPostmanCollection(doc);
  return {
    openApiJson: JSON.stringify(doc, null, 2),
    openApiYaml: toYaml(doc),
    postmanJson: JSON.stringify(collection, null, 2),
    postmanEnvironment: buildPostmanEnvironment(collection),
    apiKeyScheme: apiKeySchemeOf(doc),
  };
}

/** Server URLs remembered at once; a deployment answers on one or two, the bound only stops Host-header churn. */
const MAX_SERVER_URLS = 8;

/**
 * The documents depend only on the contract and the server URL, so each is generated once per process and URL.
 * A failed generation is forgotten, so the next request tries again.
 */
export function documentCache(): (serverUrl: string) => Promise<ApiDocuments> {
  const cache = new Map<string, Promise<ApiDocuments>>();
  return (serverUrl) => {
    let documents = cache.get(serverUrl);
    if (!documents) {
      if (cache.size >= MAX_SERVER_URLS) cache.delete(cache.keys().next().value!);
      documents = render(serverUrl);
      cache.set(serverUrl, documents);
      documents.catch(() => cache.delete(serverUrl));
    }
    return documents;
  };
}
