/**
 * `runAgent`: the explicit embedded entry point — run an agent in this process with in-memory
 * journal, memory and (by default) conversation store. No Redis, same semantics as a worker.
 */
import type { AgentFunction, AgentReturn } from '../context/agent-definition.js';
import type { RunOutcome } from '../context/run-services.js';
import type { EmbeddedServicesOptions } from '../embedded/create-embedded-services.js';
import { agentDefinitionOf } from './create-agent.js';
import { executeEmbedded } from './run-embedded.js';

/** Options of {@link runAgent}; see {@link EmbeddedServicesOptions} for every field. */
export type RunAgentOptions = EmbeddedServicesOptions;

/**
 * Runs `agent` with `input` embedded and returns its output.
 * @example
 * const mock = createMockModel().setDefaultResponse({ summary: 'short' });
 * const { summary } = await runAgent(Summarizer, { text: '…' }, { models: { gpt: mock } });
 */
export async function runAgent<Props, Result>(
  agent: AgentFunction<Props, Result>,
  input: Props,
  options: RunAgentOptions = {},
): Promise<AgentReturn<Result>> {
  const outcome = await runAgentWithOutcome(agent, input, options);
  return outcome.output as AgentReturn<Result>;
}

/** {@link runAgent}, returning the whole {@link RunOutcome} (output, usage, model calls). */
export async function runAgentWithOutcome<Props, Result>(
  agent: AgentFunction<Props, Result>,
  input: Props,
  options: RunAgentOptions = {},
): Promise<RunOutcome> {
  return executeEmbedded(agentDefinitionOf(agent), input, options);
}
