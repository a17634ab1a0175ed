import { defineModule } from '../../kit/module.js';
import { IdempotencyKey } from './idempotency-key.entity.js';

export { idempotencyStore } from './idempotency-store.js';

/** The table behind the `Idempotency-Key` header; the HTTP layer's middleware uses it through idempotencyStore. */
export const idempotencyModule = defineModule({
  name: 'idempotency',
  entities: [IdempotencyKey],
});
