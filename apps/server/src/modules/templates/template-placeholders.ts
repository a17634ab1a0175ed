/** Distinct `{{n}}` placeholders in a template body: how many values a send must carry. */
export function countPlaceholders(body: string): number {
  return new Set([...body.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((m) => m[1])).size;
}
