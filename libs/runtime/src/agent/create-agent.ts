/**
 * `createAgent(config)`: turns a handler into a callable agent. Calling it inside a run makes
 * a child invocation of the calling agent; calling it anywhere else runs it embedded (in
 * memory, no Redis) through the same engine.
 */

import type {
  AgentConcurrency,
  AgentConfig,
  AgentDefinition,
  AgentFunction,
  AgentRetryPolicy,
  AgentReturn,
} from '../context/agent-definition.js';
import { currentAgentContext } from '../context/context-store.js';
import { InvalidAgentConfigError } from '../errors/agent-errors.js';
import { toModelAdapter } from '../model/stream-model-adapter.js';
import { callChild } from './call-child.js';
import { runEmbedded } from './run-embedded.js';

const DEFINITION = Symbol.for('@flotilla/runtime/agent-definition/v1');

type AgentWithDefinition = { [DEFINITION]?: AgentDefinition; [DEFINITION_CONFIG]?: unknown };
const DEFINITION_CONFIG = Symbol.for('@flotilla/runtime/agent-config/v1');

/**
 * Creates an agent.
 * @throws Error when `config.id` is missing or blank, `config.retry.attempts` is not a whole number ≥ 1,
 *   `config.timeoutMs` is not a whole number ≥ 1, or `config.concurrency` has a bad `limit` or `key`
 * @example
 * const Summarizer = createAgent({
 *   id: 'summarizer',
 *   model: 'gpt',
 *   handler: async ({ text }: { text: string }) => {
 *     equipInstruction(`Summarize: ${text}`);
 *     return promptAgent(z.object({ summary: z.string() }));
 *   },
 * });
 */
export function createAgent<Props = undefined, Result = unknown>(
  config: AgentConfig<Props, Result>,
): AgentFunction<Props, Result> {
  const definition = resolveDefinition(config);
  const agent = ((props?: Props) => invoke<Result>(definition, props)) as unknown as AgentFunction<
    Props,
    Result
  >;
  Object.defineProperty(agent, 'id', { value: definition.id, enumerable: true });
  Object.defineProperty(agent, DEFINITION, { value: definition });
  Object.defineProperty(agent, DEFINITION_CONFIG, { value: config });
  Object.defineProperty(agent, 'fork', {
    value: (partial: Partial<AgentConfig<Props, Result>>) =>
      createAgent<Props, Result>({ ...config, ...partial }),
  });
  return agent;
}

/**
 * The resolved definition behind an agent function.
 * @throws TypeError when `agent` was not made by {@link createAgent}
 */
export function agentDefinitionOf(agent: unknown): AgentDefinition {
  const definition = (agent as AgentWithDefinition | undefined)?.[DEFINITION];
  if (!definition) throw new TypeError('Expected an agent made by createAgent().');
  return definition;
}

/** The config an agent was created with (for `fork` and `augmentAgent`). */
export function agentConfigOf<Props, Result>(
  agent: AgentFunction<Props, Result>,
): AgentConfig<Props, Result> {
  agentDefinitionOf(agent);
  return (agent as unknown as AgentWithDefinition)[DEFINITION_CONFIG] as AgentConfig<Props, Result>;
}

function invoke<Result>(definition: AgentDefinition, props: unknown): Promise<AgentReturn<Result>> {
  const parent = currentAgentContext();
  const input = props ?? {};
  const result = parent ? callChild(parent, definition, input) : runEmbedded(definition, input);
  return result as Promise<AgentReturn<Result>>;
}

function resolveDefinition<Props, Result>(config: AgentConfig<Props, Result>): AgentDefinition {
  if (typeof config.id !== 'string' || config.id.trim() === '') {
    throw new InvalidAgentConfigError('id', 'AgentConfig.id is required and must be a non-empty string.');
  }
  return {
    id: config.id,
    model:
      typeof config.model === 'object' && config.model !== null ? toModelAdapter(config.model) : config.model,
    handler: config.handler as AgentDefinition['handler'],
    maxRetries: config.maxRetries ?? 3,
    maxTurnSteps: config.maxTurnSteps ?? 10,
    maxReborns: config.maxReborns ?? 100,
    middlewares: (config.middlewares ?? []) as AgentDefinition['middlewares'],
    retry: resolveRetry(config.id, config.retry),
    timeoutMs: resolveTimeout(config.id, config.timeoutMs),
    concurrency: resolveConcurrency(config.id, config.concurrency as AgentConcurrency | undefined),
  };
}

function resolveConcurrency(
  agentId: string,
  concurrency: AgentConcurrency | undefined,
): AgentConcurrency | undefined {
  if (concurrency === undefined) return undefined;
  if (!Number.isInteger(concurrency.limit) || concurrency.limit < 1 || concurrency.limit > 1_000_000) {
    throw new InvalidAgentConfigError(
      'concurrency.limit',
      `Agent "${agentId}": concurrency.limit must be a whole number from 1 to 1000000, got ${concurrency.limit}.`,
    );
  }
  const { key } = concurrency;
  if (key !== undefined && key !== 'tenant' && typeof key !== 'function') {
    throw new InvalidAgentConfigError(
      'concurrency.key',
      `Agent "${agentId}": concurrency.key must be 'tenant' or a function of the input, got ${typeof key}.`,
    );
  }
  return concurrency;
}

function resolveRetry(agentId: string, retry: AgentRetryPolicy | undefined): AgentRetryPolicy | undefined {
  if (retry === undefined) return undefined;
  if (!Number.isInteger(retry.attempts) || retry.attempts < 1) {
    throw new InvalidAgentConfigError(
      'retry.attempts',
      `Agent "${agentId}": retry.attempts must be a whole number of at least 1, got ${retry.attempts}.`,
    );
  }
  return retry;
}

function resolveTimeout(agentId: string, timeoutMs: number | undefined): number | undefined {
  if (timeoutMs === undefined) return undefined;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) {
    throw new InvalidAgentConfigError(
      'timeoutMs',
      `Agent "${agentId}": timeoutMs must be a whole number of milliseconds ≥ 1, got ${timeoutMs}.`,
    );
  }
  return timeoutMs;
}
