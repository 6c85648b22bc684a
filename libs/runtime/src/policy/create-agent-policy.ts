/**
 * `createAgentPolicy`: turns a handler over a {@link PromptContext} into a policy function with
 * the barrier every policy shares (spec §4.1): one policy call per generation, draft hooks
 * closed from then on, stream consumers started, the model resolved, the draft frozen.
 */
import { requireAgentContext } from '../context/context-store.js';
import { ModelNotFoundError, PromptAgentAlreadyCalledError } from '../errors/agent-errors.js';
import type { PromptContext } from './prompt-context.js';
import { createPromptContext, expirePromptContext } from './prompt-context.js';

/** What {@link createAgentPolicy} takes. */
export interface AgentPolicyConfig<Args extends unknown[], Result> {
  /** Names the policy in errors, e.g. `standard-structure`. */
  policyId: string;
  handler: (runtime: PromptContext, ...args: Args) => Promise<Result>;
}

/**
 * Creates a policy. Calling it inside an agent:
 * @throws PromptAgentAlreadyCalledError when this generation already ran a policy
 * @throws ModelNotFoundError when neither the agent nor an ancestor has a model
 * @throws ContextNotFoundError outside an agent run
 */
export function createAgentPolicy<Args extends unknown[], Result>(
  config: AgentPolicyConfig<Args, Result>,
): (...args: Args) => Promise<Result> {
  // Not async: the handler's promise and one `.then` that expires the runtime (an async layer
  // with `try`/`finally` around an `await` costs two).
  return (...args: Args) => {
    let runtime: PromptContext | undefined;
    let answer: Promise<Result>;
    try {
      const context = requireAgentContext(config.policyId);
      const { draft } = context;
      if (draft.prompted) throw new PromptAgentAlreadyCalledError(config.policyId);
      draft.prompted = true;
      for (const consumer of draft.streamConsumers) consumer.start();
      const model = context.resolveModel();
      if (!model) throw new ModelNotFoundError(context.agentId);
      runtime = createPromptContext(context, config.policyId, model);
      // `Promise.resolve` of a native promise is that promise: nothing more for the usual handler.
      answer = Promise.resolve(config.handler(runtime, ...args));
    } catch (error) {
      if (runtime) expirePromptContext(runtime);
      return Promise.reject(error);
    }
    const expiring = runtime;
    return answer.then(
      (result) => {
        expirePromptContext(expiring);
        return result;
      },
      (error: unknown) => {
        expirePromptContext(expiring);
        throw error;
      },
    );
  };
}
