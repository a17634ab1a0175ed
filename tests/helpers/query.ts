/**
 * Query-string text of parameters as the API reads a GET: a list as a repeated key, an object as JSON text; absent
 * (undefined) parameters left out.
 */
export function queryOf(params: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value])
      query.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  return query.toString();
}
