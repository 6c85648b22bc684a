import { InMemoryOffloadedOutputs, type OffloadedOutputs } from '../budget/offloaded-outputs.js';
import type { RunServices } from './run-services.js';

const fallbacks = new WeakMap<RunServices, OffloadedOutputs>();

/**
 * The run's store of offloaded tool output: `services.outputs`, or (services built by hand,
 * without one) an in-memory store shared by everything of that run.
 */
export function outputsOf(services: RunServices): OffloadedOutputs {
  if (services.outputs) return services.outputs;
  let outputs = fallbacks.get(services);
  if (!outputs) {
    outputs = new InMemoryOffloadedOutputs();
    fallbacks.set(services, outputs);
  }
  return outputs;
}
