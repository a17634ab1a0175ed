import { buildOpenApi, type OpenAPIObject } from '@switchboard/openapi';
import { expect } from 'vitest';

type Header = { required?: boolean } | { $ref: string };
type Operation = { responses: Record<string, { headers?: Record<string, Header> }> };

let doc: OpenAPIObject | undefined;

/** The response headers the exported OpenAPI declares `required` for this operation and status. */
function declaredHeaders(method: 'GET' | 'POST', path: string, status: number): string[] {
  doc ??= buildOpenApi();
  const response = (doc.paths[path]?.[method.toLowerCase()] as Operation | undefined)?.responses[String(status)];
  if (!response) throw new Error(`${method} ${path} documents no ${status} reply`);
  const resolve = (header: Header) =>
    '$ref' in header ? (doc!.components!.headers![header.$ref.split('/').pop()!] as Header) : header;
  return Object.entries(response.headers ?? {}).flatMap(([name, header]) =>
    (resolve(header) as { required?: boolean }).required ? [name] : [],
  );
}

/** A real reply carries every header the document declares required for its status (e.g. Retry-After on a 503). */
export function expectDeclaredHeaders(
  method: 'GET' | 'POST',
  path: string,
  reply: { status: number; headers: object },
) {
  const declared = declaredHeaders(method, path, reply.status);
  const missing = declared.filter(
    (name) => (reply.headers as Record<string, unknown>)[name.toLowerCase()] === undefined,
  );
  expect(missing, `${method} ${path} ${reply.status} lacks headers the OpenAPI declares required`).toEqual([]);
}
