/**
 * `equipFleetMemo`: `equipMemo` with a second, fleet-wide level. Inside an agent invocation the
 * value is kept in agent memory (reborn does not recompute) and journaled (a replay after a
 * crash returns the recorded value, never recomputes); across invocations, runs and workers it
 * is shared through the run's {@link FleetMemo} when the worker has one (single-flight, epoch).
 */
import { assertJsonValue, cloneJsonValue } from '../context/clone-json-value.js';
import { requireAgentContext } from '../context/context-store.js';
import { durableStep } from '../engine/durable-step.js';
import { hashJson } from '../engine/fingerprint.js';
import { portableJson } from '../json/canonical-json.js';

/** Memory key prefix of fleet memo entries inside an agent invocation. */
const FLEET_MEMO_MEMORY_PREFIX = '__flotilla_fleet_memo__::';

/** Options of {@link equipFleetMemo}. */
export interface EquipFleetMemoOptions {
  /**
   * Ignore what is cached in this invocation and across the fleet: compute again, advance the
   * fleet epoch so every worker sees the new value, and keep it for later calls of this
   * invocation (the next reborn reuses it).
   * @default false
   */
  forceRefresh?: boolean;
}

interface FleetMemoMemoryEntry {
  deps: unknown[];
  value: unknown;
}

/**
 * Returns the value for (`key`, `deps`): from this agent invocation's memory, else from the
 * fleet memo, else by running `compute` (once for the whole fleet when several miss at once).
 * `deps` are compared structurally. The call is a durable step: on replay it returns what was
 * recorded, and `forceRefresh` is part of what is recorded, so a replay never refreshes again.
 *
 * Without a fleet memo in the run's services (embedded mode), values are shared only within
 * the invocation, like `equipMemo`.
 *
 * @throws TypeError when `deps` (checked before anything runs) or the value is not JSON
 * @throws whatever `compute` throws (nothing is stored then)
 * @throws ContextNotFoundError outside an agent run
 */
export async function equipFleetMemo<T>(
  key: string,
  compute: () => Promise<T> | T,
  deps: readonly unknown[],
  options: EquipFleetMemoOptions = {},
): Promise<T> {
  const context = requireAgentContext('equipFleetMemo');
  const hookName = `equipFleetMemo("${key}")`;
  assertJsonValue(deps, `${hookName} deps`);
  const forceRefresh = options.forceRefresh ?? false;
  const memoryKey = `${FLEET_MEMO_MEMORY_PREFIX}${key}`;
  const remember = (value: unknown) => {
    const entry: FleetMemoMemoryEntry = { deps: [...deps], value };
    context.memory.set(memoryKey, entry, hookName);
  };

  const { value, replayed } = await durableStep(context, {
    kind: 'memo',
    position: context.nextPosition('memo', key),
    fingerprint: `fleet-memo:${key}:${hashJson(deps)}${forceRefresh ? ':refresh' : ''}`,
    execute: async () => {
      const stored = context.memory.get(memoryKey) as FleetMemoMemoryEntry | undefined;
      if (!forceRefresh && stored && portableJson(stored.deps) === portableJson(deps))
        return stored.value as T;
      const fleetMemo = context.run.services.fleetMemo;
      const computed = fleetMemo
        ? await fleetMemo.get(key, deps, compute, { forceRefresh })
        : cloneJsonValue(await compute(), hookName);
      remember(computed);
      return computed;
    },
  });
  // A replay keeps memory in step with the journal, so later lookups with these deps hit.
  if (replayed) remember(value);
  return value;
}
