import { expectTypeOf, test } from 'vitest';
import { reborn } from '../context/reborn.js';
import { createAgent } from './create-agent.js';

test('reborn signals are removed from the agent result type', () => {
  const Agent = createAgent({
    id: 'typed',
    handler: async ({ n }: { n: number }) => (n > 0 ? reborn({ n: n - 1 }) : { done: true }),
  });
  expectTypeOf(Agent).parameter(0).toEqualTypeOf<{ n: number }>();
  expectTypeOf(Agent({ n: 1 })).resolves.toEqualTypeOf<{ done: boolean }>();
});
