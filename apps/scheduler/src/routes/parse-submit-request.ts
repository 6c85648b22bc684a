import { InvalidRequestError } from '../errors/http-errors.js';

/** The body of `POST /runs`. */
export interface SubmitRunRequest {
  /** The agent to run (BullMQ job name). */
  agentId: string;
  /** The agent's input, any JSON. @default null (the agent then receives `{}`) */
  input: unknown;
  /** Idempotency: submitting an existing run id returns that run. @default a random UUID */
  runId?: string;
  /** Resume (or start) this stored conversation. */
  conversationId?: string;
  /** Scope layers for every agent of the run, outermost first. */
  scope?: Record<string, unknown>[];
}

// Ids end up in Redis keys and BullMQ job ids: no spaces or braces (hash tags), and not only
// digits, which BullMQ reserves for its own job ids.
const ID_PATTERN = /^[A-Za-z0-9_.:-]{1,200}$/;

/**
 * Checks a parsed `POST /runs` body.
 * @throws InvalidRequestError naming the first field that is wrong
 */
export function parseSubmitRequest(body: unknown): SubmitRunRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new InvalidRequestError('The body must be a JSON object: { "agentId": "…", "input": … }.');
  const fields = body as Record<string, unknown>;
  const request: SubmitRunRequest = {
    agentId: id(fields, 'agentId', true) as string,
    input: fields.input ?? null,
  };
  const runId = id(fields, 'runId', false);
  if (runId !== undefined) {
    if (/^\d+$/.test(runId))
      throw new InvalidRequestError('`runId` must not be only digits (BullMQ reserves those).');
    request.runId = runId;
  }
  const conversationId = id(fields, 'conversationId', false);
  if (conversationId !== undefined) request.conversationId = conversationId;
  if (fields.scope !== undefined) request.scope = scope(fields.scope);
  return request;
}

function id(fields: Record<string, unknown>, name: string, required: boolean): string | undefined {
  const value = fields[name];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || !ID_PATTERN.test(value))
    throw new InvalidRequestError(
      `\`${name}\` ${value === undefined ? 'is required' : 'is invalid'}: expected 1 to 200 letters, digits, \`_\`, \`.\`, \`:\` or \`-\`.`,
    );
  return value;
}

function scope(value: unknown): Record<string, unknown>[] {
  if (
    Array.isArray(value) &&
    value.every((layer) => typeof layer === 'object' && layer !== null && !Array.isArray(layer))
  )
    return value as Record<string, unknown>[];
  throw new InvalidRequestError('`scope` must be an array of objects (scope layers, outermost first).');
}
