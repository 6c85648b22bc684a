import type { ServerResponse } from 'node:http';
import { errorStatus } from './error-status.js';

/** Answers `status` with `body` as JSON. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response
    .writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
      ...headers,
    })
    .end(text);
}

/**
 * Answers `error` as `{ error: { name, message } }` with its status (see `ERROR_STATUS`).
 * Unexpected errors (500) do not leak their message: it is in the scheduler's log.
 */
export function sendError(response: ServerResponse, error: unknown): number {
  const status = errorStatus(error);
  const body =
    status === 500
      ? { name: 'InternalServerError', message: 'The scheduler failed to answer; the reason is in its log.' }
      : { name: (error as Error).name, message: (error as Error).message };
  // After an oversized body the rest of it is not read; closing the connection drops it.
  sendJson(response, status, { error: body }, status === 413 ? { connection: 'close' } : {});
  return status;
}
