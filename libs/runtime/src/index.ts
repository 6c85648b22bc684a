/**
 * @flotilla/runtime — agents as durable BullMQ jobs.
 */
export type {
  ModelAdapter,
  ModelDelta,
  ModelRequest,
  ModelResponse,
  OutputSchema,
  ToolChoice,
} from './model/model-adapter.js';
export { ModelCallError } from './model/model-call-error.js';
