import { defineModule } from '../../kit/module.js';
import { IdempotencyKey } from './idempotency-key.entity.js';

/** The table behind the `Idempotency-Key` header; the HTTP layer's idempotency middleware reads and writes it. */
export const idempotencyModule = defineModule({
  name: 'idempotency',
  entities: [IdempotencyKey],
});
