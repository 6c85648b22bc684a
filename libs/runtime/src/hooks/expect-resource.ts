import type { AgentContext } from '../context/agent-context.js';
import { requireAgentContext } from '../context/context-store.js';
import { runResourcesOf } from '../context/run-resources-of.js';
import { ResourceNotFoundError } from '../errors/agent-errors.js';

/**
 * Reads a resource exposed by this agent or the nearest ancestor (`equipResource(key, {
 * expose: true })`). Synchronous. Non-exposed resources and siblings' resources are invisible.
 *
 * When the exposing ancestor runs in another job (a child run), the key resolves to: the
 * owner's very instance on the owner's worker; else a local instance built by a
 * `defineResource` factory registered on this worker for `key`; else a broker proxy whose async
 * methods run on the owner's instance (JSON arguments and results; a call fails with
 * `ResourceOwnerGoneError` when the owner worker is gone).
 * @throws ResourceNotFoundError when no agent in the chain exposes `key` (unless optional)
 * @throws ContextNotFoundError outside an agent run
 */
export function expectResource<T>(key: string): T;
export function expectResource<T>(key: string, options: { optional: true }): T | undefined;
export function expectResource<T>(key: string, options?: { optional: true }): T | undefined {
  const context = requireAgentContext('expectResource');
  const found = findProvider(context, key) ?? runResourcesOf(context.run).resolve(key);
  if (found !== undefined) return found as T;
  if (options?.optional) return undefined;
  throw new ResourceNotFoundError(key);
}

function findProvider(context: AgentContext, key: string): unknown {
  for (let current: AgentContext | undefined = context; current; current = current.parent) {
    const value = current.providers.get(key);
    if (value !== undefined) return value;
  }
  return undefined;
}
