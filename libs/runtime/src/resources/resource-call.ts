/**
 * The wire format of a cross-worker resource call: one {@link ResourceCallRequest} pushed to the
 * owner worker's request list, one {@link ResourceCallReply} pushed to the request's reply list.
 * Arguments and results are JSON (functions and class instances do not cross). A top-level
 * `undefined` argument crosses as `undefined` (see {@link encodeResourceCallArgs}); deeper
 * down JSON rules apply (object fields holding `undefined` are dropped, array items become `null`).
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
  /** JSON arguments, trailing `undefined`s dropped; other `undefined`s sent as `null`… */
  args: unknown[];
  /** …and listed here by index, so the owner passes `undefined` again. Absent when none. */
  undefinedArgs?: number[];
  /** Epoch ms after which the caller no longer waits; the owner skips older requests. */
  deadline: number;
}

/** The outcome of a call: the method's JSON result, or its error with `name` preserved. */
export type ResourceCallReply = { ok: true; value?: unknown } | { ok: false; error: SerializedError };

/**
 * Encodes call arguments so `undefined` survives the trip: trailing `undefined` arguments are
 * dropped (the owner's method sees them omitted, as `f(a)` rather than `f(a, null)`: optional
 * parameters and SDK calls such as `listTools(undefined)` keep working), and the indexes of the
 * remaining top-level `undefined`s are listed so {@link decodeResourceCallArgs} restores them.
 */
export function encodeResourceCallArgs(
  args: readonly unknown[],
): Pick<ResourceCallRequest, 'args' | 'undefinedArgs'> {
  let length = args.length;
  while (length > 0 && args[length - 1] === undefined) length--;
  const kept = args.slice(0, length);
  const undefinedArgs = kept.flatMap((arg, index) => (arg === undefined ? [index] : []));
  return undefinedArgs.length > 0 ? { args: kept, undefinedArgs } : { args: kept };
}

/** The arguments the owner's method is called with: {@link encodeResourceCallArgs} undone. */
export function decodeResourceCallArgs(
  request: Pick<ResourceCallRequest, 'args' | 'undefinedArgs'>,
): unknown[] {
  const args = [...request.args];
  for (const index of request.undefinedArgs ?? []) if (index < args.length) args[index] = undefined;
  return args;
}

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
  const { undefinedArgs } = request;
  if (undefinedArgs !== undefined && !(Array.isArray(undefinedArgs) && undefinedArgs.every(Number.isInteger)))
    return undefined;
  return value as ResourceCallRequest;
}
