/**
 * Durable memo computations. `equipMemo` journals the value it returns at
 * `<generation>/memo:<key>:<n>`, so a replay returns the same value without running the
 * factory, even when the memo was recomputed later in the run with other deps.
 */
import type { AgentContext } from '../context/agent-context.js';
import type { DurableResult } from './durable-step.js';
import { durableStep } from './durable-step.js';
import { hashJson } from './fingerprint.js';

/** Serves a memo lookup from the journal or computes (hit or miss) and records it. */
export function memoDurably<T>(
  context: AgentContext,
  key: string,
  deps: readonly unknown[],
  compute: () => Promise<T>,
): Promise<DurableResult<T>> {
  return durableStep(context, {
    kind: 'memo',
    position: context.nextPosition('memo', key),
    fingerprint: `memo:${key}:${hashJson(deps)}`,
    execute: compute,
  });
}
