/**
 * Runs an agent definition outside any run: builds in-memory services and goes through
 * {@link executeRun} exactly as a worker would.
 */
import type { AgentDefinition } from '../context/agent-definition.js';
import type { RunOutcome } from '../context/run-services.js';
import type { EmbeddedServicesOptions } from '../embedded/create-embedded-services.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { executeDefinition } from '../engine/execute-run.js';
import { invokeAgent } from './invoke-agent.js';

/** Executes `definition` with in-memory services and returns its outcome. */
export async function executeEmbedded(
  definition: AgentDefinition,
  input: unknown,
  options: EmbeddedServicesOptions = {},
): Promise<RunOutcome> {
  const services = createEmbeddedServices(options);
  return executeDefinition(definition, input, services, invokeAgent);
}

/** Executes `definition` with in-memory services and returns its output. */
export async function runEmbedded(
  definition: AgentDefinition,
  input: unknown,
  options: EmbeddedServicesOptions = {},
): Promise<unknown> {
  return (await executeEmbedded(definition, input, options)).output;
}
