import { defineModule } from '../../kit/module.js';
import { IdempotencyKey } from './idempotency-key.entity.js';

import { idempotencySweeper } from './idempotency-store.js';

export { idempotencyStore, idempotencySweeper } from './idempotency-store.js';

/** The table behind the `Idempotency-Key` header; the HTTP layer's middleware uses it through idempotencyStore. */
export const idempotencyModule = defineModule({
  name: 'idempotency',
  entities: [IdempotencyKey],
  jobs: () => ({ targets: [], workers: [idempotencySweeper] }),
});
