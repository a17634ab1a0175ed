import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { stringify } from 'yaml';
import { buildOpenApi, type OpenAPIObject, type OpenApiOptions } from './openapi.js';
import { buildPostmanCollection, buildPostmanEnvironment } from './postman.js';

export const API_FILES = {
  json: 'openapi.json',
  yaml: 'openapi.yaml',
  postman: 'postman_collection.json',
  postmanEnvironment: 'switchboard.postman_environment.json',
} as const;

/** The definition as YAML (the `yaml` package: block style, no anchors, long descriptions kept on one line). */
export function toYaml(doc: OpenAPIObject): string {
  return stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
}

/**
 * Writes openapi.json, openapi.yaml, the Postman collection and its environment into `outDir` (created if missing);
 * returns their paths.
 */
export async function writeApiFiles(outDir: string, options: OpenApiOptions = {}): Promise<string[]> {
  const doc = buildOpenApi(options);
  const collection = await buildPostmanCollection(doc);
  const contents: [string, string][] = [
    [API_FILES.json, `${JSON.stringify(doc, null, 2)}\n`],
    [API_FILES.yaml, toYaml(doc)],
    [API_FILES.postman, `${JSON.stringify(collection, null, 2)}\n`],
    [API_FILES.postmanEnvironment, `${JSON.stringify(buildPostmanEnvironment(collection), null, 2)}\n`],
  ];
  await mkdir(outDir, { recursive: true });
  return Promise.all(
    contents.map(async ([name, text]) => {
      const file = path.join(outDir, name);
      await writeFile(file, text);
      return file;
    }),
  );
}
