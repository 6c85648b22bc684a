/**
 * The wire format of a cross-worker resource call: one {@link ResourceCallRequest} pushed to the
 * owner worker's request list, one {@link ResourceCallReply} pushed to the request's reply list.
 * Arguments and results are JSON (functions and class instances do not cross).
 */
import type { SerializedError } from '../errors/serialize-error.js';

/** A method call on an exposed resource, as the owner worker receives it. */
export interface ResourceCallRequest {
  /** Unique per call; names the reply list. */
  id: string;
  /** The registry entry of the instance on the owner worker. */
  entryId: string;
  key: string;
  ownerRunId: string;
  method: string;
  args: unknown[];
  /** Epoch ms after which the caller no longer waits; the owner skips older requests. */
  deadline: number;
}

/** The outcome of a call: the method's JSON result, or its error with `name` preserved. */
export type ResourceCallReply = { ok: true; value?: unknown } | { ok: false; error: SerializedError };

/**
 * Parses a request read from Redis; `undefined` when it is not one (it is then dropped).
 */
export function parseResourceCallRequest(text: string): ResourceCallRequest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const request = value as Record<string, unknown>;
  const strings = ['id', 'entryId', 'key', 'ownerRunId', 'method'] as const;
  if (!strings.every((field) => typeof request[field] === 'string')) return undefined;
  if (!Array.isArray(request.args) || typeof request.deadline !== 'number') return undefined;
  return value as ResourceCallRequest;
}
