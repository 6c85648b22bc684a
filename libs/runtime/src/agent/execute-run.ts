/**
 * `executeRun`: executes (or replays) one run of an agent against its {@link RunServices}, with
 * this layer's generation loop ({@link invokeAgent}) handed to the engine.
 */
import type { AgentDefinition, AgentFunction } from '../context/agent-definition.js';
import type { RunOutcome, RunServices } from '../context/run-services.js';
import { executeDefinition, type RunSettle, startDefinition } from '../engine/execute-run.js';
import { agentDefinitionOf } from './create-agent.js';
import { invokeAgent } from './invoke-agent.js';

/** What {@link executeRun} runs. */
export interface ExecuteRunOptions {
  // biome-ignore lint/suspicious/noExplicitAny: any agent, whatever its props and result types
  agent: AgentFunction<any, any>;
  input: unknown;
  services: RunServices;
}

/**
 * Runs the agent to completion (or suspension) and returns its outcome; see
 * {@link executeDefinition} for the events it emits and what it throws.
 */
export function executeRun(options: ExecuteRunOptions): Promise<RunOutcome> {
  return executeAgentDefinition(agentDefinitionOf(options.agent), options.input, options.services);
}

/** {@link executeRun} for an already resolved agent definition. */
export function executeAgentDefinition(
  definition: AgentDefinition,
  input: unknown,
  services: RunServices,
): Promise<RunOutcome> {
  return executeDefinition(definition, input, services, invokeAgent);
}

/** {@link executeRun} reporting to `settle` instead of a promise (see `startDefinition`). */
export function startRun(options: ExecuteRunOptions, settle: RunSettle): void {
  startDefinition(agentDefinitionOf(options.agent), options.input, options.services, invokeAgent, settle);
}
