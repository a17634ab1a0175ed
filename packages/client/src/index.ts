export { createClient, type ClientOptions, type ClientTree, type EndpointMethod, type SwitchboardClient } from './create-client.js';
export { SwitchboardError } from './errors.js';
export * from '@switchboard/contract';
