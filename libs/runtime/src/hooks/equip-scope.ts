import { findNonJson } from '../context/clone-json-value.js';
import { requireAgentContext } from '../context/context-store.js';

/**
 * Adds a scope layer that this agent and its descendants read with `expectScope`. Later
 * layers replace earlier ones key by key (top level only); `undefined` clears a key. No-op
 * for empty objects. The layer belongs to this generation (call again after `reborn()`); a
 * child sees the layers that exist when it is called.
 * @throws TypeError when a value (other than `undefined`) is not JSON
 * @throws ContextNotFoundError outside an agent run
 */
export function equipScope<T extends Record<string, unknown>>(data: T): void {
  const context = requireAgentContext('equipScope');
  if (!data || Object.keys(data).length === 0) return;
  const found = findNonJson(stripUndefined(data));
  if (found) {
    throw new TypeError(
      `equipScope: invalid serializable value at "${found.path}". Reason: ${found.reason}. Scope values must be JSON (undefined clears a key).`,
    );
  }
  context.draft.scopeLayers.push(data);
}

/** A copy without `undefined` values (allowed in scope: they clear a key). */
function stripUndefined(value: unknown, seen = new Set<object>()): unknown {
  if (Array.isArray(value))
    return value.map((item) => (item === undefined ? null : stripUndefined(item, seen)));
  if (value === null || typeof value !== 'object' || seen.has(value)) return value;
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  seen.add(value);
  const result: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    if (item !== undefined) result[key] = stripUndefined(item, seen);
  seen.delete(value);
  return result;
}
