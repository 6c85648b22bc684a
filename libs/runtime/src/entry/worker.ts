/**
 * `@flotilla/runtime/worker` — for the process that runs agents: `createWorker`, its options and
 * lifecycle hooks, `defineResource` factories, and the configuration it resolves.
 */

export type { AnyAgent } from '../context/agent-definition.js';
export { defineResource, type ResourceDefinition } from '../resources/define-resource.js';
export {
  type GateParkObservation,
  type MemoObservation,
  type ModelCallObservation,
  ObservationChannel,
  type ResourceCallObservation,
} from '../shared/observation-channels.js';
export { SpanAttribute } from '../shared/tracing.js';
export { createWorker, type FlotillaWorker, type WorkerState } from '../worker/create-worker.js';
export type { CreateWorkerOptions } from '../worker/worker-options.js';
export type { WorkerRunEndInfo, WorkerRunHooks, WorkerRunStartInfo } from '../worker/worker-run-hooks.js';
export * from './configuration.js';
