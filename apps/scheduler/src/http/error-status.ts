/**
 * The HTTP status of every error the API answers with, by error `name` (names are stable
 * across processes and packages, classes are not). Errors not listed are 500.
 */
export const ERROR_STATUS: Readonly<Record<string, number>> = {
  InvalidJsonError: 400,
  InvalidRequestError: 400,
  InvalidSubmitRequestError: 400,
  InvalidRunQueryError: 400,
  InvalidScheduleError: 400,
  // A tenant's view asked for another tenant's runs.
  InvalidTenantError: 400,
  InvalidLastEventIdError: 400,
  TokenInQueryError: 400,
  // The input or scope is nested deeper than FLOTILLA_MAX_JSON_DEPTH, or is not JSON.
  ValueTooDeepError: 400,
  NotJsonError: 400,
  // A signal's payload breaks the schema its wait expects; a bad signal name or id; a bad approval.
  InvalidSignalPayloadError: 400,
  InvalidWaitError: 400,
  InvalidApprovalError: 400,
  UnauthorizedError: 401,
  ForbiddenError: 403,
  ForeignOriginError: 403,
  RouteNotFoundError: 404,
  DashboardNotBuiltError: 404,
  RunNotFoundError: 404,
  ConversationNotFoundError: 404,
  ScheduleNotFoundError: 404,
  ConversationVersionNotFoundError: 404,
  // The run asked no approval of that tool call.
  UnknownApprovalError: 404,
  MethodNotAllowedError: 405,
  RequestTimeoutError: 408,
  // The same runId submitted again with other content.
  RunIdConflictError: 409,
  RunAlreadyEndedError: 409,
  // A signal or approval for a run that ended; a tool call answered differently before.
  RunEndedError: 409,
  // A run export of a run that has not started yet.
  RunNotExportableError: 409,
  ApprovalAlreadyAnsweredError: 409,
  RequestBodyTooLargeError: 413,
  // The input or scope is larger than FLOTILLA_MAX_PAYLOAD_BYTES: workers would refuse it.
  PayloadTooLargeError: 413,
  // A run export past 64 MiB.
  RunExportTooLargeError: 413,
  UnsupportedMediaTypeError: 415,
  TooManyStreamsError: 429,
  // Redis did not answer within the scheduler's request timeout: retry later.
  RedisUnavailableError: 503,
};

/** The status for `error`: from {@link ERROR_STATUS}, else 500. */
export function errorStatus(error: unknown): number {
  const name = error instanceof Error ? error.name : undefined;
  return (name !== undefined && ERROR_STATUS[name]) || 500;
}
