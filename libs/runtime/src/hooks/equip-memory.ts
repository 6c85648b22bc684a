import { requireAgentContext } from '../context/context-store.js';

/** Sets a memory value: a new value, or an updater that receives a copy of the latest one. */
export type MemorySetter<T> = (value: T | ((previous: T) => T)) => void;

/**
 * Agent memory: JSON state of this agent invocation that survives `reborn()` and is stored
 * with the run (so a replay after a crash sees it), but dies when the agent returns. Never
 * shared with parents, children or siblings.
 *
 * Returns a copy of the value (`initial` is stored when the key is absent) and a setter that
 * stores immediately but does not change the already-returned copy. On replay the value read
 * is the latest one stored, so prefer updating memory after durable steps or through updaters.
 * @throws TypeError when `initial` or a set value is not JSON
 * @throws ContextNotFoundError outside an agent run
 */
export function equipMemory<T>(key: string, initial: T): [T, MemorySetter<T>] {
  const context = requireAgentContext('equipMemory');
  const { memory } = context;
  const hookName = `equipMemory("${key}")`;
  if (!memory.has(key)) memory.set(key, initial, hookName);
  const setter: MemorySetter<T> = (value) => {
    const next =
      typeof value === 'function' ? (value as (previous: T) => T)(memory.get(key) as T) : (value as T);
    memory.set(key, next, hookName);
  };
  return [memory.get(key) as T, setter];
}
