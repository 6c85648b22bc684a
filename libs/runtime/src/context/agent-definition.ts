/**
 * The shapes of an agent: {@link AgentConfig} (what `createAgent` takes), {@link AgentFunction}
 * (the callable it returns), {@link AgentMiddleware} and the resolved {@link AgentDefinition}
 * the engine runs.
 */
import type { ModelAdapter } from '../model/model-adapter.js';
import type { AnyModelAdapter } from '../model/stream-model-adapter.js';
import type { RebornSignal } from './reborn.js';

/** What a handler may return: the result, or `reborn()` to run again. */
export type HandlerReturn<Props, Result> = Result | RebornSignal<NoInfer<Props>>;

/**
 * Wraps every generation of an agent (onion: index 0 is outermost). Runs inside the agent
 * context, so hooks work; may replace `context.props` before `next()`, change the result, or
 * short-circuit. Runs again on every reborn: keep it idempotent.
 */
export interface AgentMiddleware<Props = unknown, Result = unknown> {
  name: string;
  handler(
    context: { agentId: string; props: Props },
    next: () => Promise<HandlerReturn<Props, Result>>,
  ): Promise<HandlerReturn<Props, Result>>;
  config?: Record<string, unknown>;
}

/** What `createAgent` takes. */
export interface AgentConfig<Props, Result> {
  /** Non-empty; used in callPaths, journal positions, events and as the BullMQ job name. */
  id: string;
  /**
   * The model: an adapter, or an id resolved when the agent is called from the run's `models`
   * (worker / `runAgent` option). @default the nearest ancestor agent's model
   */
  model?: string | AnyModelAdapter;
  /** The agent body; return a result or `reborn(props?)`. */
  handler: (props: Props) => Promise<HandlerReturn<Props, Result>> | HandlerReturn<Props, Result>;
  /** Validation retries per tool-loop step. @default 3 */
  maxRetries?: number;
  /** Model calls allowed per generation (tool rounds and validation retries). @default 10 */
  maxTurnSteps?: number;
  /** Reborns allowed (N reborns = N + 1 generations). @default 100 */
  maxReborns?: number;
  /** Usually added with `augmentAgent`. @default [] */
  middlewares?: AgentMiddleware<Props, Result>[];
  /**
   * How often a run of this agent on a worker is attempted before it fails, and the wait
   * between attempts: for a child run (its job's attempts/backoff) before its failure reaches
   * the parent's await, for a root run (applied by the worker) before `result()` rejects. An
   * attempt replays the run from its journal, so recorded model turns, tools and child calls
   * are not run again. Embedded runs (`runAgent`) are not retried.
   * @default { attempts: 1 } (no retry)
   */
  retry?: AgentRetryPolicy;
  /**
   * Deadline of a run of this agent on a worker, in ms from its submission (a `submit(…, {
   * timeoutMs })` or the remaining time of a parent run, if smaller, wins). Past it the run ends
   * `failed` with `RunTimeoutError`, even when its code ignores the abort signal or it waits on
   * child runs. Embedded runs (`runAgent`) have no deadline. @default none
   */
  timeoutMs?: number;
  /**
   * A fleet-wide cap on how many runs of this agent execute at once (on workers): runs over
   * the cap wait at the waiting gate without holding a worker slot (`waitingFor: { kind:
   * 'concurrency' }`), and a run that ends (or suspends) wakes the next. `key` caps each group
   * separately: `'tenant'` (per tenant) or a function of the run's input (e.g. a customer id),
   * whose answer (1 to 200 characters) names the group. A dead worker's place lapses after about
   * twice the worker's `lockDurationMs`. Embedded runs are not capped. @default no cap
   */
  concurrency?: AgentConcurrency<Props>;
}

/** A concurrency cap; see {@link AgentConfig.concurrency}. */
export interface AgentConcurrency<Props = unknown> {
  /** How many runs (of one key) may execute at once, fleet-wide (a whole number ≥ 1). */
  limit: number;
  /** What groups runs under one cap: `'tenant'`, or a function of the input. @default one cap for the agent */
  key?: 'tenant' | ((input: Props, run: { tenant?: string }) => string);
}

/** The retry policy of an agent's runs on workers; see {@link AgentConfig.retry}. */
export interface AgentRetryPolicy {
  /** Attempts in all, the first included (≥ 1). */
  attempts: number;
  /** Wait between attempts: fixed, or doubling from `delayMs`. @default no wait */
  backoff?: { type: 'fixed' | 'exponential'; delayMs: number };
}

/** The configuration the engine runs, defaults filled in. */
export interface AgentDefinition {
  id: string;
  model: string | ModelAdapter | undefined;
  handler: (props: unknown) => Promise<unknown> | unknown;
  maxRetries: number;
  maxTurnSteps: number;
  maxReborns: number;
  middlewares: AgentMiddleware[];
  retry: AgentRetryPolicy | undefined;
  timeoutMs: number | undefined;
  concurrency: AgentConcurrency | undefined;
}

/** Removes the reborn signal from a handler's return type. */
export type AgentReturn<Result> = Exclude<Awaited<Result>, RebornSignal<unknown>>;

/**
 * A callable agent. Inside a run, `await Agent(props)` runs it as a child of the calling agent
 * (durably: its result is journaled); outside any run it runs embedded, in memory.
 */
export interface AgentFunction<Props, Result> {
  (...args: undefined extends Props ? [props?: Props] : [props: Props]): Promise<AgentReturn<Result>>;
  readonly id: string;
  /** A new agent with `config` shallow-merged over this one's (this agent is unchanged). */
  fork(config: Partial<AgentConfig<Props, Result>>): AgentFunction<Props, Result>;
}

/** An agent of any props and result types (what a worker serves, what an agent module exports). */
// biome-ignore lint/suspicious/noExplicitAny: any props and result types
export type AnyAgent = AgentFunction<any, any>;
