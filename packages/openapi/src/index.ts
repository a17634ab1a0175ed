export { API_FILES, toYaml, writeApiFiles } from './files.js';
export { buildOpenApi, DEFAULT_SERVER_URL, serverRootOf, type OpenAPIObject, type OpenApiOptions } from './openapi.js';
export {
  buildPostmanCollection,
  buildPostmanEnvironment,
  type PostmanCollection,
  type PostmanEnvironment,
} from './postman.js';
export { portmanPreRequestScripts } from './postman-setup.js';
export { withoutStreams } from './event-stream.js';
