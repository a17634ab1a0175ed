import { buildOpenApi } from '@switchboard/openapi';
import { describe, expect, it } from 'vitest';
import { generateApiTypes } from '../../packages/client/scripts/generate-types.js';

/**
 * What integrators see, pinned: the OpenAPI document and the SDK's public types, both generated from the contract,
 * compared with the committed copies in tests/export/surface/. A refactoring leaves them byte-identical; a change
 * to the API on purpose refreshes them with `pnpm snapshot:api` and commits the difference, so a review sees exactly
 * what changed for integrators.
 */
describe('the API surface', () => {
  it('the OpenAPI document is the committed one', async () => {
    await expect(`${JSON.stringify(buildOpenApi(), null, 2)}\n`).toMatchFileSnapshot('surface/openapi.json.snap');
  });

  // The type checker resolves every endpoint's types: seconds alone, a minute on a loaded machine.
  it("the SDK's public types are the committed ones", { timeout: 180_000 }, async () => {
    await expect(generateApiTypes()).toMatchFileSnapshot('surface/sdk-types.ts.snap');
  });
});
