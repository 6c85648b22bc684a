import { errorGuard, FlotillaError } from '@flotilla/runtime';

/** A non-loopback request while FLOTILLA_API_TOKEN is unset: without a token only this machine may call the API. Answered with HTTP 403. */
export class ForbiddenError extends FlotillaError {
  static override readonly errorName = 'ForbiddenError';
  static override readonly is = errorGuard(this);
  constructor(remoteAddress: string | undefined) {
    super(
      `Request from ${remoteAddress ?? 'an unknown address'} refused: FLOTILLA_API_TOKEN is not set, so only ` +
        'loopback requests are accepted. Set FLOTILLA_API_TOKEN on the scheduler and send it as a bearer token.',
    );
  }
}

/** No endpoint has this path. Answered with HTTP 404. */
export class RouteNotFoundError extends FlotillaError {
  static override readonly errorName = 'RouteNotFoundError';
  static override readonly is = errorGuard(this);
  constructor(method: string, path: string) {
    super(
      `No endpoint ${method} ${path.length > 200 ? `${path.slice(0, 200)}…` : path}. The endpoints are listed ` +
        'in GET /openapi.json.',
    );
  }
}

/** The request body is longer than the API accepts (FLOTILLA_MAX_PAYLOAD_BYTES plus room for the other fields). Answered with HTTP 413. */
export class RequestBodyTooLargeError extends FlotillaError {
  static override readonly errorName = 'RequestBodyTooLargeError';
  static override readonly is = errorGuard(this);

  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super(
      `The request body is longer than ${limitBytes} bytes. Send a smaller input (keep large data out of run ` +
        'inputs and pass an id), or raise FLOTILLA_MAX_PAYLOAD_BYTES on the scheduler and every worker.',
    );
    this.limitBytes = limitBytes;
  }
}

/** The request body is not JSON. Answered with HTTP 400. */
export class InvalidJsonError extends FlotillaError {
  static override readonly errorName = 'InvalidJsonError';
  static override readonly is = errorGuard(this);
}

/** No conversation has this id. Answered with HTTP 404. */
export class ConversationNotFoundError extends FlotillaError {
  static override readonly errorName = 'ConversationNotFoundError';
  static override readonly is = errorGuard(this);

  readonly conversationId: string;

  constructor(conversationId: string) {
    super(
      `No conversation "${conversationId}": check the id, or submit a run with this conversationId to start it.`,
    );
    this.conversationId = conversationId;
  }
}

/** The request is JSON but a field is missing or has the wrong type; the message names the field. Answered with HTTP 400. */
export class InvalidRequestError extends FlotillaError {
  static override readonly errorName = 'InvalidRequestError';
  static override readonly is = errorGuard(this);
}

/** The request has no bearer token or the wrong one (FLOTILLA_API_TOKEN is set). Answered with HTTP 401. */
export class UnauthorizedError extends FlotillaError {
  static override readonly errorName = 'UnauthorizedError';
  static override readonly is = errorGuard(this);
  constructor() {
    super(
      'Missing or wrong bearer token: send `Authorization: Bearer <token>` with the FLOTILLA_API_TOKEN of the scheduler.',
    );
  }
}

/** The path exists but not with this method. Answered with HTTP 405. */
export class MethodNotAllowedError extends FlotillaError {
  static override readonly errorName = 'MethodNotAllowedError';
  static override readonly is = errorGuard(this);
  readonly allowed: readonly string[];

  constructor(method: string, path: string, allowed: readonly string[]) {
    super(`${method} is not allowed on ${path}; use ${allowed.join(' or ')}.`);
    this.allowed = allowed;
  }
}

/** A request body that is not `application/json`. Answered with HTTP 415. */
export class UnsupportedMediaTypeError extends FlotillaError {
  static override readonly errorName = 'UnsupportedMediaTypeError';
  static override readonly is = errorGuard(this);
  constructor(contentType: string | undefined) {
    super(
      `The request body is ${contentType ? `"${contentType.slice(0, 100)}"` : 'sent without a Content-Type'}; ` +
        'send JSON with `Content-Type: application/json`.',
    );
  }
}

/** In the tokenless loopback mode, a request whose `Host` or `Origin` is not this machine (DNS rebinding, a web page's request). Answered with HTTP 403. */
export class ForeignOriginError extends FlotillaError {
  static override readonly errorName = 'ForeignOriginError';
  static override readonly is = errorGuard(this);
  constructor(header: 'Host' | 'Origin') {
    super(
      `Request refused: its ${header} header is not a loopback name (localhost, 127.0.0.1, [::1]). Without ` +
        'FLOTILLA_API_TOKEN only requests from this machine to a loopback name are accepted, so a web page ' +
        'cannot reach the API through the browser. Call it as http://127.0.0.1:<port>, or set FLOTILLA_API_TOKEN.',
    );
  }
}

/** A credential in the query string, where proxies and logs keep it. Answered with HTTP 400. */
export class TokenInQueryError extends FlotillaError {
  static override readonly errorName = 'TokenInQueryError';
  static override readonly is = errorGuard(this);
  constructor(parameter: string) {
    super(
      `Request refused: the query parameter "${parameter.slice(0, 40)}" looks like a credential. Send the token ` +
        'as `Authorization: Bearer <token>`, never in the URL (URLs are logged), and replace a token that was sent this way.',
    );
  }
}

/** The request body did not arrive within FLOTILLA_API_BODY_TIMEOUT_MS. Answered with HTTP 408. */
export class RequestTimeoutError extends FlotillaError {
  static override readonly errorName = 'RequestTimeoutError';
  static override readonly is = errorGuard(this);
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(
      `The request body did not arrive within ${timeoutMs} ms. Send the whole body at once, or raise ` +
        'FLOTILLA_API_BODY_TIMEOUT_MS for slow networks.',
    );
    this.timeoutMs = timeoutMs;
  }
}

/** A principal already has FLOTILLA_API_MAX_STREAMS event streams open. Answered with HTTP 429. */
export class TooManyStreamsError extends FlotillaError {
  static override readonly errorName = 'TooManyStreamsError';
  static override readonly is = errorGuard(this);
  readonly limit: number;
  constructor(principal: string, limit: number) {
    super(
      `"${principal}" already has ${limit} event streams open, the most allowed (FLOTILLA_API_MAX_STREAMS). ` +
        'Close streams you no longer read (an EventSource reconnects until closed), or raise the limit.',
    );
    this.limit = limit;
  }
}

/** `Last-Event-ID` is not a run event id (`<ms>-<seq>`). Answered with HTTP 400. */
export class InvalidLastEventIdError extends FlotillaError {
  static override readonly errorName = 'InvalidLastEventIdError';
  static override readonly is = errorGuard(this);
  constructor() {
    super(
      'The Last-Event-ID header is not an event id of this API (`<ms>-<seq>`, digits, as sent in `id:`). ' +
        'Send the id of the last event received, or no header to read from the start.',
    );
  }
}

/** `cancel` of a run that already ended. Answered with HTTP 409. */
export class RunAlreadyEndedError extends FlotillaError {
  static override readonly errorName = 'RunAlreadyEndedError';
  static override readonly is = errorGuard(this);
  readonly runId: string;
  readonly status: string;
  constructor(runId: string, status: string) {
    super(
      `Run "${runId}" already ended (${status}); there is nothing to cancel. Its record has the outcome.`,
    );
    this.runId = runId;
    this.status = status;
  }
}

/** `GET /ui` while the dashboard's files are missing (its workspace not built). Answered with HTTP 404. */
export class DashboardNotBuiltError extends FlotillaError {
  static override readonly errorName = 'DashboardNotBuiltError';
  static override readonly is = errorGuard(this);
  constructor(directory: string | undefined) {
    super(
      `The dashboard is not built${directory ? ` (no index.html in ${directory})` : ' (@flotilla/dashboard is not installed)'}: ` +
        'run `npm run build` at the repository root, then restart the scheduler.',
    );
  }
}

/** No schedule has this id (for the caller's tenant). Answered with HTTP 404. */
export class ScheduleNotFoundError extends FlotillaError {
  static override readonly errorName = 'ScheduleNotFoundError';
  static override readonly is = errorGuard(this);
  readonly scheduleId: string;
  constructor(scheduleId: string) {
    super(`No schedule "${scheduleId}". GET /schedules lists the schedules.`);
    this.scheduleId = scheduleId;
  }
}
