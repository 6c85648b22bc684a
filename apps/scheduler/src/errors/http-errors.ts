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
      `No endpoint ${method} ${path}. Endpoints: POST /runs, GET /runs/:id, GET /runs/:id/events, ` +
        'POST /runs/:id/cancel, GET /conversations/:id, GET /healthz.',
    );
  }
}

/** The request body is longer than FLOTILLA_API_MAX_BODY_BYTES. Answered with HTTP 413. */
export class RequestBodyTooLargeError extends FlotillaError {
  static override readonly errorName = 'RequestBodyTooLargeError';
  static override readonly is = errorGuard(this);

  readonly limitBytes: number;

  constructor(limitBytes: number) {
    super(
      `The request body is longer than ${limitBytes} bytes. Send a smaller input (keep large data out of run ` +
        'inputs and pass an id), or raise FLOTILLA_API_MAX_BODY_BYTES.',
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
  constructor(method: string, path: string, allowed: readonly string[]) {
    super(`${method} is not allowed on ${path}; use ${allowed.join(' or ')}.`);
  }
}
