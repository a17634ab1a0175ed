export * from './access.js';
export * from './endpoint.js';
export * from './envelope.js';
export * from './errors.js';
export * from './query.js';
export * from './schemas.js';
