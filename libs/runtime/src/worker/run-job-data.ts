import type { RunPlacement } from '../context/child-runner.js';
import { isResourceDescriptor, type ResourceDescriptor } from '../resources/resource-descriptor.js';
import { InvalidRunInputError } from './invalid-run-input-error.js';
import { PayloadTooLargeError } from './payload-too-large-error.js';

/**
 * The data of a run's BullMQ job (job name = agent id, job id = run id). `input` travels as
 * JSON text so its size is checked before it is parsed; conversations never travel in jobs,
 * only their id.
 */
export interface RunJobData {
  /** The agent's input as JSON text. */
  input: string;
  conversationId?: string;
  /** Scope layers, outermost first (for a child run: captured from its caller when it was enqueued). */
  scope?: Record<string, unknown>[];
  /** For a child run (a BullMQ child job): its place in the tree. */
  child?: RunPlacement;
  /** For a child run: resources its ancestors expose (filled by the resource registry). */
  resources?: ResourceDescriptor[];
  /** For a root run: failed attempts so far, written by the worker that retries it. */
  failedAttempts?: number;
}

/** A run's job data, checked and parsed. */
export interface DecodedRunJob {
  input: unknown;
  conversationId?: string;
  scope?: Record<string, unknown>[];
  child?: RunPlacement;
  resources?: ResourceDescriptor[];
  failedAttempts?: number;
}

/** Builds job data; `undefined` input is sent as `null` (JSON has no `undefined`). */
export function encodeRunJobData(
  input: unknown,
  options: {
    conversationId?: string | undefined;
    scope?: Record<string, unknown>[] | undefined;
    child?: RunPlacement | undefined;
    resources?: ResourceDescriptor[] | undefined;
  },
): RunJobData {
  const data: RunJobData = { input: JSON.stringify(input ?? null) };
  if (options.conversationId !== undefined) data.conversationId = options.conversationId;
  if (options.scope !== undefined) data.scope = options.scope;
  if (options.child !== undefined) data.child = options.child;
  if (options.resources !== undefined && options.resources.length > 0) data.resources = options.resources;
  return data;
}

/**
 * Checks and parses job data.
 * @throws PayloadTooLargeError when `input` is longer than `maxPayloadBytes` (checked first, before parsing)
 * @throws InvalidRunInputError when the data does not have the {@link RunJobData} shape or `input` is not JSON
 */
export function decodeRunJobData(data: unknown, maxPayloadBytes: number): DecodedRunJob {
  if (typeof data !== 'object' || data === null)
    throw new InvalidRunInputError('the job data is not an object');
  const { input, conversationId, scope, child, resources, failedAttempts } = data as Record<string, unknown>;
  if (typeof input !== 'string') throw new InvalidRunInputError('`input` must be JSON text');
  const bytes = Buffer.byteLength(input, 'utf8');
  if (bytes > maxPayloadBytes) throw new PayloadTooLargeError(bytes, maxPayloadBytes);
  const decoded: DecodedRunJob = { input: parseInput(input) };
  if (conversationId !== undefined) {
    if (typeof conversationId !== 'string' || conversationId === '') {
      throw new InvalidRunInputError('`conversationId` must be a non-empty string');
    }
    decoded.conversationId = conversationId;
  }
  if (scope !== undefined) {
    if (!Array.isArray(scope) || !scope.every((layer) => typeof layer === 'object' && layer !== null)) {
      throw new InvalidRunInputError('`scope` must be an array of objects');
    }
    decoded.scope = scope as Record<string, unknown>[];
  }
  if (child !== undefined) decoded.child = decodePlacement(child);
  if (resources !== undefined) {
    if (!Array.isArray(resources) || !resources.every(isResourceDescriptor))
      throw new InvalidRunInputError('`resources` must be an array of resource descriptors');
    decoded.resources = resources;
  }
  if (failedAttempts !== undefined) {
    if (!Number.isInteger(failedAttempts) || (failedAttempts as number) < 0)
      throw new InvalidRunInputError('`failedAttempts` must be a whole number ≥ 0');
    decoded.failedAttempts = failedAttempts as number;
  }
  return decoded;
}

function decodePlacement(value: unknown): RunPlacement {
  const placement = value as Partial<Record<keyof RunPlacement, unknown>> | null;
  const valid =
    typeof placement === 'object' &&
    placement !== null &&
    typeof placement.callPath === 'string' &&
    typeof placement.parentRunId === 'string' &&
    typeof placement.rootRunId === 'string' &&
    Number.isInteger(placement.depth) &&
    (placement.modelId === undefined || typeof placement.modelId === 'string');
  if (!valid) {
    throw new InvalidRunInputError('`child` must be { callPath, depth, parentRunId, rootRunId, modelId? }');
  }
  return placement as RunPlacement;
}

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidRunInputError(`\`input\` is not JSON (${(error as Error).message})`);
  }
}
