/**
 * `runWith(fn, options)`: the seed API's way to run code (usually agent calls) in-process with
 * root-provided models, resources, scope and a signal. Flotilla runs `fn` as the handler of a
 * root agent on in-memory services (as `runAgent` does), so every hook and agent call inside it
 * behaves as in a run; `providers` are exposed to every agent below as borrowed resources
 * (never destroyed), `scope` is the outermost scope layer, `signal` cancels the whole tree.
 * For durable runs on a fleet, submit through the client instead.
 */
import { currentAgentContext, requireAgentContext } from '../context/context-store.js';
import { RunWithNestedError } from '../errors/agent-errors.js';
import { equipResource } from '../hooks/equip-resource.js';
import { equipScope } from '../hooks/equip-scope.js';
import type { AnyModelAdapter } from '../model/stream-model-adapter.js';
import { createAgent } from './create-agent.js';
import { runAgent } from './run-agent.js';

/** Options of {@link runWith}. */
export interface RunWithOptions {
  /** The model of every agent below that names none. */
  model?: AnyModelAdapter;
  /** Models that `createAgent({ model: 'id' })` names (the seed's `modelRegistry`). */
  modelRegistry?: Record<string, AnyModelAdapter> | ReadonlyMap<string, AnyModelAdapter>;
  /** Values every agent below finds with `expectResource(key)`; borrowed, never destroyed. */
  providers?: Record<string, unknown>;
  /** The outermost scope layer (`expectScope`); JSON only. */
  scope?: Record<string, unknown>;
  /** Cancels `fn` and every agent below it. */
  signal?: AbortSignal;
  /** The root agent's id, as events and call paths show it. @default 'runWith' */
  id?: string;
}

/**
 * Runs `fn` in a root agent context and returns its result.
 * @throws RunWithNestedError when called inside an agent (use the agent call itself there)
 * @throws AbortError when `signal` aborts; whatever `fn` throws
 */
export async function runWith<R>(
  fn: () => R | Promise<R>,
  options: RunWithOptions = {},
): Promise<Awaited<R>> {
  if (currentAgentContext()) throw new RunWithNestedError();
  const Root = createAgent<undefined, Awaited<R>>({
    id: options.id ?? 'runWith',
    ...(options.model ? { model: options.model } : {}),
    handler: async (): Promise<Awaited<R>> => {
      if (options.scope) equipScope(options.scope);
      for (const [key, value] of Object.entries(options.providers ?? {})) {
        // A borrowed value: no destroy, so the root's teardown leaves it alone.
        await equipResource(key, { create: async () => value, deps: [], expose: true });
      }
      return await fn();
    },
  });
  return runAgent(Root, undefined, {
    ...(options.modelRegistry ? { models: options.modelRegistry } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  }) as Promise<Awaited<R>>;
}

/** The current agent's abort signal, or `undefined` outside an agent. */
export function getContextSignal(): AbortSignal | undefined {
  return currentAgentContext()?.signal;
}

/**
 * A function that cancels the current agent (and everything below it), callable later and
 * from outside the agent's async context (a timer, another request).
 * @throws ContextNotFoundError outside an agent
 */
export function getAbortHandle(): (reason?: string) => void {
  const context = requireAgentContext('getAbortHandle');
  return (reason = 'Cancelled by getAbortHandle') => context.controller.abort(reason);
}
