import { requireAgentContext } from '../context/context-store.js';
import type { ResourceConfig } from '../context/resource-slots.js';

export type { ResourceConfig } from '../context/resource-slots.js';

/**
 * A live resource (client, connection …) owned by this agent invocation: created once while
 * `deps` stay the same (shallow `Object.is`), rebuilt when they change (the old one destroyed
 * once), destroyed once when the agent ends, kept across `reborn()`. With `expose: true`,
 * descendants read it with `expectResource(key)`, also child runs on other workers.
 *
 * The instance lives in the worker's resource registry: a replay of a suspended run on the same
 * worker reuses it; it is destroyed when the run ends, when the worker shuts down, or when a
 * suspended run's lease expires.
 * @throws Error when `expose` changes for a key; AbortError when the agent ended during `create`
 * @throws ResourceRegistryClosedError when the worker is shutting down
 * @throws whatever `create` throws
 * @throws ContextNotFoundError outside an agent run
 */
export function equipResource<T>(key: string, config: ResourceConfig<T>): Promise<T> {
  return requireAgentContext('equipResource').resources.equip(key, config);
}
