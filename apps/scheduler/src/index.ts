/**
 * @flotilla/scheduler — the HTTP API and the `flotilla` CLI as a library. `dist/main.js` is the
 * API process entry and `dist/cli/flotilla.js` the CLI; these pieces are exported for tests and
 * for programs that embed the API.
 */
export { ApiRequestError } from './cli/api-request-error.js';
export { parseSse, type SseMessage } from './cli/parse-sse.js';
export { type CliIo, runCli, USAGE } from './cli/run-cli.js';
export { SchedulerApi, type SchedulerApiOptions, type SubmitBody } from './cli/scheduler-api.js';
export { UsageError } from './cli/usage-error.js';
export {
  ConversationNotFoundError,
  ForbiddenError,
  InvalidJsonError,
  InvalidRequestError,
  MethodNotAllowedError,
  RequestBodyTooLargeError,
  RouteNotFoundError,
  UnauthorizedError,
} from './errors/http-errors.js';
export { authorizeRequest, isLoopback } from './http/authorize-request.js';
export { ERROR_STATUS, errorStatus } from './http/error-status.js';
export { parseSubmitRequest, type SubmitRunRequest } from './routes/parse-submit-request.js';
export { resolveSchedulerConfig, type SchedulerConfig } from './scheduler-config.js';
export { createSchedulerServer, type SchedulerServerOptions } from './scheduler-server.js';
export { type SchedulerApp, startSchedulerApp } from './start-scheduler-app.js';
