import type { z } from 'zod';
import { requireAgentContext } from '../context/context-store.js';
import { scopeLayersOf } from '../context/scope-layers.js';
import { ExpectScopeError } from '../errors/agent-errors.js';

/** A deeply read-only view of `T`. */
export type DeepReadonly<T> = T extends (infer Item)[]
  ? readonly DeepReadonly<Item>[]
  : T extends object
    ? { readonly [Key in keyof T]: DeepReadonly<T[Key]> }
    : T;

/**
 * Reads the scope: submit-time layers, then every ancestor's and this agent's `equipScope`
 * layers (root first), merged key by key at the top level, validated with `schema` (defaults
 * apply, unknown keys are stripped) and deep-frozen.
 * @throws ExpectScopeError (name `ScopeError`) listing every issue when validation fails
 * @throws ContextNotFoundError outside an agent run
 */
export function expectScope<S extends z.ZodType>(schema: S): DeepReadonly<z.infer<S>> {
  const context = requireAgentContext('expectScope');
  const merged: Record<string, unknown> = {};
  for (const layer of scopeLayersOf(context)) Object.assign(merged, layer);
  for (const [key, value] of Object.entries(merged)) if (value === undefined) delete merged[key];
  const parsed = schema.safeParse(merged);
  if (!parsed.success) {
    throw new ExpectScopeError(
      parsed.error.issues.map((issue) => ({
        path: issue.path.join('.') || '(root)',
        message: issue.message,
      })),
    );
  }
  return deepFreeze(parsed.data) as DeepReadonly<z.infer<S>>;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
