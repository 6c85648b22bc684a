import { assertJsonValue, cloneJsonValue } from '../context/clone-json-value.js';
import { requireAgentContext } from '../context/context-store.js';
import { memoDurably } from '../engine/memo-write.js';
import { portableJson } from '../json/canonical-json.js';

/** Memory key prefix of memo entries. */
export const MEMO_KEY_PREFIX = '__flotilla_memo__::';

interface MemoEntry {
  deps: unknown[];
  value: unknown;
}

/**
 * A value computed once per agent invocation while `deps` stay the same (compared deeply),
 * kept in agent memory (so it survives reborn and crash replay) and journaled.
 * Concurrent misses each run the factory.
 * @throws TypeError when `deps` (checked before the factory runs) or the value is not JSON
 * @throws whatever the factory throws (nothing is stored then)
 * @throws ContextNotFoundError outside an agent run
 */
export async function equipMemo<T>(
  key: string,
  factory: () => Promise<T> | T,
  deps: readonly unknown[],
): Promise<T> {
  const context = requireAgentContext('equipMemo');
  const hookName = `equipMemo("${key}")`;
  assertJsonValue(deps, `${hookName} deps`);
  const memoryKey = `${MEMO_KEY_PREFIX}${key}`;
  const { value, replayed } = await memoDurably(context, key, deps, async () => {
    const stored = context.memory.get(memoryKey) as MemoEntry | undefined;
    if (stored && portableJson(stored.deps) === portableJson(deps)) return stored.value as T;
    const computed = await factory();
    const entry: MemoEntry = { deps: [...deps], value: cloneJsonValue(computed, hookName) };
    context.memory.set(memoryKey, entry, hookName);
    return computed;
  });
  // A replay keeps memory in step with the journal, so later lookups with these deps hit.
  if (replayed) context.memory.set(memoryKey, { deps: [...deps], value }, hookName);
  return value;
}
