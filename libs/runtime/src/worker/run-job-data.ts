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
  /** Scope layers, outermost first. */
  scope?: Record<string, unknown>[];
}

/** A run's job data, checked and parsed. */
export interface DecodedRunJob {
  input: unknown;
  conversationId?: string;
  scope?: Record<string, unknown>[];
}

/** Builds job data; `undefined` input is sent as `null` (JSON has no `undefined`). */
export function encodeRunJobData(
  input: unknown,
  options: { conversationId?: string | undefined; scope?: Record<string, unknown>[] | undefined },
): RunJobData {
  const data: RunJobData = { input: JSON.stringify(input ?? null) };
  if (options.conversationId !== undefined) data.conversationId = options.conversationId;
  if (options.scope !== undefined) data.scope = options.scope;
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
  const { input, conversationId, scope } = data as Record<string, unknown>;
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
  return decoded;
}

function parseInput(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidRunInputError(`\`input\` is not JSON (${(error as Error).message})`);
  }
}
