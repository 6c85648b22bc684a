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
  DashboardNotBuiltError,
  ForbiddenError,
  ForeignOriginError,
  InvalidJsonError,
  InvalidLastEventIdError,
  InvalidRequestError,
  MethodNotAllowedError,
  RequestBodyTooLargeError,
  RequestTimeoutError,
  RouteNotFoundError,
  RunAlreadyEndedError,
  TokenInQueryError,
  TooManyStreamsError,
  UnauthorizedError,
  UnsupportedMediaTypeError,
} from './errors/http-errors.js';
export type { ApiApp, ApiEnv, ApiServices, Principal } from './http/api-env.js';
export {
  authorizeRequest,
  DEFAULT_PRINCIPAL,
  isLoopback,
  isLoopbackHost,
  type RequestCredentials,
} from './http/authorize-request.js';
export { clientFor } from './http/client-for.js';
export { DASHBOARD_CSP, DASHBOARD_PATH, DashboardAssets } from './http/dashboard-assets.js';
export { ERROR_STATUS, errorStatus } from './http/error-status.js';
export { StreamCaps } from './http/stream-caps.js';
export { type ApiRoute, defineApiRoute } from './routes/api-route.js';
export { API_ROUTES } from './routes/api-routes.js';
export { resolveSchedulerConfig, type SchedulerConfig } from './scheduler-config.js';
export {
  createSchedulerApp,
  createSchedulerServer,
  OPENAPI_PATH,
  type SchedulerServerOptions,
} from './scheduler-server.js';
export { type SchedulerApp, startSchedulerApp } from './start-scheduler-app.js';
