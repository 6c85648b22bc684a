/**
 * Runs one agent invocation: the generation loop of spec §3.1 (fresh draft per generation,
 * middlewares + handler inside the agent context, reborn handling and limits, events), with
 * durable reborns and teardown. Used for the root agent of a run and for in-process children.
 */
import { AgentContext } from '../context/agent-context.js';
import type { AgentDefinition, AgentMiddleware } from '../context/agent-definition.js';
import { runInAgentContext } from '../context/context-store.js';
import { isRebornSignal } from '../context/reborn.js';
import type { RunState } from '../context/run-state.js';
import { recordReborn, resumeGeneration } from '../engine/record-reborn.js';
import { ModelRegistryNotFoundError, RebornLimitExceededError } from '../errors/agent-errors.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import { SETTLED } from '../shared/settled.js';

/** Where an invocation runs. */
export interface InvokeAgentOptions {
  definition: AgentDefinition;
  props: unknown;
  run: RunState;
  callPath: string;
  parent: AgentContext | undefined;
  /** Handed the invocation's context once it exists (its usage is read when it ends). */
  onContext?: (context: AgentContext) => void;
}

/**
 * Runs the invocation to its result. Not an async function: the generations go on in one
 * `.then`, and the invocation's end (close, flush, memory) runs in its callbacks as a `finally`
 * would (one promise per invocation instead of the function's and its await's).
 * @throws whatever the handler throws, `RebornLimitExceededError`, `ModelRegistryNotFoundError`, `AbortError`
 */
export function invokeAgent(options: InvokeAgentOptions): Promise<unknown> {
  const { definition, run } = options;
  let context: AgentContext;
  try {
    const placement = options.parent ? undefined : run.services.placement;
    context = new AgentContext({
      definition,
      run,
      callPath: options.callPath,
      parent: options.parent,
      model: resolveOwnModel(definition, run),
      depth: placement?.depth ?? 0,
      inheritedModel:
        placement?.modelId === undefined ? undefined : run.services.models.get(placement.modelId),
    });
    options.onContext?.(context);
  } catch (error) {
    return Promise.reject(error);
  }
  let running: Promise<unknown>;
  try {
    // Read ahead by the run's start (most root invocations): nothing to wait for.
    const loading = context.memory.load();
    running =
      loading === SETTLED
        ? runGenerations(context, options.props)
        : loading.then(() => runGenerations(context, options.props));
  } catch (error) {
    running = Promise.reject(error);
  }
  return running.then(
    (result) => endInvocation(context, true, () => result),
    (error: unknown) =>
      endInvocation(context, false, () => {
        throw error;
      }),
  );
}

/**
 * The end of an invocation, in a `finally`'s order: its context closed, the run's writes flushed,
 * and the memory of one that succeeded cleared; then `outcome` gives the invocation's result (or
 * throws its error). A step that fails replaces the outcome, as a throwing `finally` would.
 * Usually nothing to tear down, flush or clear: no promise then.
 */
function endInvocation(context: AgentContext, succeeded: boolean, outcome: () => unknown): unknown {
  const closing = context.close(succeeded ? 'Agent success' : 'Agent error');
  if (closing !== SETTLED) return closing.then(() => flushAndClear(context, succeeded, outcome));
  return flushAndClear(context, succeeded, outcome);
}

function flushAndClear(context: AgentContext, succeeded: boolean, outcome: () => unknown): unknown {
  const flushing = context.run.flushWrites();
  if (flushing !== SETTLED) return flushing.then(() => clearMemory(context, succeeded, outcome));
  return clearMemory(context, succeeded, outcome);
}

/** Memory is per invocation. A failed invocation keeps it: a retry of the run replays from it. */
function clearMemory(context: AgentContext, succeeded: boolean, outcome: () => unknown): unknown {
  // One that stored nothing (most) has nothing to clear: no write, and none of its promises.
  if (!succeeded || context.memory.storesNothing) return outcome();
  return context.run.services.memory.clear(context.callPath).then(outcome);
}

/**
 * The generations of the invocation from where its journal resumes it, until one returns
 * without being reborn. Not an async loop: each generation goes on in the callbacks of its own
 * `.then` (two promises fewer per invocation; most have one generation).
 */
function runGenerations(context: AgentContext, initialProps: unknown): Promise<unknown> {
  const { generation, props } = resumeGeneration(context.run, context.callPath, initialProps);
  return runGenerationFrom(context, generation, props);
}

function runGenerationFrom(context: AgentContext, generation: number, props: unknown): Promise<unknown> {
  const { definition, run } = context;
  const base = { callPath: context.callPath, agentId: definition.id, generation };
  try {
    context.throwIfAborted();
    context.startGeneration(generation);
  } catch (error) {
    return Promise.reject(error);
  }
  run.emit({ type: 'generation-start', ...base });
  const failed = (error: unknown): never => {
    run.emit({ type: 'generation-end', ...base, endReason: 'error' });
    throw error;
  };
  return runGeneration(
    context,
    props,
    (result) => {
      try {
        context.throwIfAborted();
      } catch (error) {
        return failed(error);
      }
      if (!isRebornSignal(result)) {
        run.emit({ type: 'generation-end', ...base, endReason: 'return' });
        return result;
      }
      if (generation >= definition.maxReborns) {
        run.emit({ type: 'generation-end', ...base, endReason: 'error' });
        throw new RebornLimitExceededError(definition.maxReborns, generation + 1);
      }
      const nextProps = result.props ?? props;
      return recordReborn(context, nextProps).then(() => {
        run.emit({
          type: 'reborn',
          callPath: context.callPath,
          agentId: definition.id,
          generation: generation + 1,
        });
        run.emit({ type: 'generation-end', ...base, endReason: 'reborn' });
        return runGenerationFrom(context, generation + 1, nextProps);
      });
    },
    failed,
  );
}

/**
 * One generation: middlewares (index 0 outermost) around the handler, then stream consumers
 * closed, then `ended` with its result, or `failed` with its error. One `.then`, not an async
 * function awaiting in a `try`/`finally`; a consumer's failed close replaces the outcome, as a
 * throwing `finally` would.
 */
function runGeneration(
  context: AgentContext,
  props: unknown,
  ended: (result: unknown) => unknown,
  failed: (error: unknown) => never,
): Promise<unknown> {
  const { definition } = context;
  // Without middlewares the handler is called as is: a sync throw still rejects the generation.
  const chain =
    definition.middlewares.length === 0
      ? () => definition.handler(props)
      : middlewareChain(definition, { agentId: definition.id, props });
  let running: Promise<unknown>;
  try {
    running = Promise.resolve(runInAgentContext(context, chain));
  } catch (error) {
    running = Promise.reject(error);
  }
  return running.then(
    (result) => {
      const closing = closeStreamConsumers(context);
      return closing ? closing.then(() => ended(result), failed) : ended(result);
    },
    (error: unknown) => {
      const closing = closeStreamConsumers(context);
      if (!closing) return failed(error);
      return closing.then(() => failed(error), failed);
    },
  );
}

/** Closes the generation's stream consumers; `undefined` when it has none (the usual case). */
function closeStreamConsumers(context: AgentContext): Promise<unknown> | undefined {
  const { streamConsumers } = context.draft;
  if (streamConsumers.length === 0) return undefined;
  return Promise.all(streamConsumers.map((consumer) => consumer.close()));
}

/** The middlewares (index 0 outermost) around the handler, which gets the props they leave. */
function middlewareChain(
  definition: AgentDefinition,
  middlewareContext: { agentId: string; props: unknown },
): () => Promise<unknown> {
  return definition.middlewares.reduceRight<() => Promise<unknown>>(
    (next, middleware: AgentMiddleware) => () => middleware.handler(middlewareContext, next),
    async () => definition.handler(middlewareContext.props),
  );
}

function resolveOwnModel(definition: AgentDefinition, run: RunState): ModelAdapter | undefined {
  if (typeof definition.model !== 'string') return definition.model;
  const model = run.services.models.get(definition.model);
  if (!model)
    throw new ModelRegistryNotFoundError(definition.model, definition.id, [...run.services.models.keys()]);
  return model;
}
