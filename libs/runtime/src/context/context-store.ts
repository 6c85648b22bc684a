/**
 * The implicit agent context. Hooks find the running agent through one process-wide
 * `AsyncLocalStorage`, kept on `globalThis` under a registered symbol so that two copies of
 * this package loaded in one process still share it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { ContextNotFoundError } from '../errors/agent-errors.js';
import type { AgentContext } from './agent-context.js';

const STORE_KEY = Symbol.for('@flotilla/runtime/context-store/v1');

type GlobalWithStore = typeof globalThis & { [STORE_KEY]?: AsyncLocalStorage<AgentContext> };

function contextStorage(): AsyncLocalStorage<AgentContext> {
  const holder = globalThis as GlobalWithStore;
  holder[STORE_KEY] ??= new AsyncLocalStorage<AgentContext>();
  return holder[STORE_KEY];
}

/** The agent context of the caller, or `undefined` outside any agent run. */
export function currentAgentContext(): AgentContext | undefined {
  return contextStorage().getStore();
}

/**
 * The agent context of the caller.
 * @throws ContextNotFoundError naming `apiName` when called outside an agent run.
 */
export function requireAgentContext(apiName: string): AgentContext {
  const context = currentAgentContext();
  if (!context) throw new ContextNotFoundError(apiName);
  return context;
}

/** Runs `fn` with `context` as the implicit agent context of everything it awaits. */
export function runInAgentContext<T>(context: AgentContext, fn: () => T): T {
  return contextStorage().run(context, fn);
}
