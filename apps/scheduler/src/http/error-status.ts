/**
 * The HTTP status of every error the API answers with, by error `name` (names are stable
 * across processes, classes are not). Errors not listed are 500.
 */
export const ERROR_STATUS: Readonly<Record<string, number>> = {
  InvalidJsonError: 400,
  InvalidRequestError: 400,
  UnauthorizedError: 401,
  ForbiddenError: 403,
  RouteNotFoundError: 404,
  RunNotFoundError: 404,
  ConversationNotFoundError: 404,
  ConversationVersionNotFoundError: 404,
  MethodNotAllowedError: 405,
  // The run id was already started by another submission (Temporal's "already started").
  RunIdConflictError: 409,
  RequestBodyTooLargeError: 413,
  // Redis did not answer within FLOTILLA_REQUEST_TIMEOUT_MS: retry later.
  RedisUnavailableError: 503,
};

/** The status for `error`: from {@link ERROR_STATUS}, else 500. */
export function errorStatus(error: unknown): number {
  const name = error instanceof Error ? error.name : undefined;
  return (name !== undefined && ERROR_STATUS[name]) || 500;
}
