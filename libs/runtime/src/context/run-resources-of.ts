/**
 * Finds the {@link RunResources} of a run execution: the worker's (given in `RunServices`), or,
 * in embedded mode, a private registry for the execution, so `equipResource` behaves the same
 * with or without a worker (no broker: nothing crosses processes there).
 */

import { ResourceRegistry } from '../resources/resource-registry.js';
import { RunResources } from '../resources/run-resources.js';
import type { RunState } from './run-state.js';

const embedded = new WeakMap<RunState, RunResources>();

/** The resources of `run`. */
export function runResourcesOf(run: RunState): RunResources {
  const given = run.services.resources;
  if (given) return given;
  let own = embedded.get(run);
  if (!own) {
    own = new RunResources({
      runId: run.runId,
      registry: new ResourceRegistry(run.services.logger ? { logger: run.services.logger } : {}),
    });
    embedded.set(run, own);
  }
  return own;
}
