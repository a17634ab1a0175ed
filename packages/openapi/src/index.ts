export { API_FILES, toYaml, writeApiFiles } from './files.js';
export { buildOpenApi, DEFAULT_SERVER_URL, type OpenAPIObject, type OpenApiOptions } from './openapi.js';
export { buildPostmanCollection, type PostmanCollection } from './postman.js';
