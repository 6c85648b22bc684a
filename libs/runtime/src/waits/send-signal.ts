/**
 * The sender's side of signals (`client.signal`, `POST /runs/:id/signals/:name`): the payload is
 * checked (JSON within the fleet's bounds, and against the schema the run's wait on that name
 * recorded, if any), queued in the run's keys under its name — once per signal id — and the
 * run is woken (`wake-run.ts`). Validated here, once: the worker trusts what it takes.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { RunNotFoundError } from '../errors/run-errors.js';
import { InvalidSignalPayloadError, InvalidWaitError, RunEndedError } from '../errors/wait-errors.js';
import { ID_RULE, isValidId } from '../jobs/id-rule.js';
import { checkJsonBounds, type JsonLimits } from '../json/json-bounds.js';
import { runKeys } from '../keys.js';
import { deliverSignalScript } from './lua/deliver-signal-4.lua.js';
import { DEFAULT_WAIT_KEY_SECONDS } from './redis-run-waits.js';
import { type RunWakeUp, wakeRun } from './wake-run.js';

/** Options of `client.signal`. */
export interface SignalOptions {
  /** The signal's id: a signal with an id seen before is ignored (idempotent sends). @default a new UUID */
  id?: string;
}

/** What `client.signal` did. */
export interface SignalReceipt {
  signalId: string;
  /** `true` when a signal with this id had come before: nothing was queued. */
  duplicate: boolean;
}

/** What {@link sendSignal} needs. */
export interface SignalSender extends RunWakeUp {
  redis: Redis;
  prefix: string;
  limits: JsonLimits;
}

/**
 * Sends signal `name` with `payload` to the run `runId` (its stored id).
 * @throws InvalidWaitError when the name or id breaks the id rule
 * @throws PayloadTooLargeError / ValueTooDeepError / NotJsonError when the payload is not bounded JSON
 * @throws InvalidSignalPayloadError when the run's wait on `name` expects another shape (nothing is queued)
 * @throws RunNotFoundError when there is no such run; RunEndedError when it already ended
 */
export async function sendSignal(
  sender: SignalSender,
  runId: string,
  name: string,
  payload: unknown,
  options: SignalOptions = {},
): Promise<SignalReceipt> {
  if (!isValidId(name)) throw new InvalidWaitError('signal name', ID_RULE);
  const signalId = options.id ?? randomUUID();
  if (!isValidId(signalId)) throw new InvalidWaitError('signal id', ID_RULE);
  checkJsonBounds(payload, `the payload of signal "${name}"`, sender.limits);
  const keys = runKeys(sender.prefix, runId);
  await checkAgainstSchema(sender.redis, keys.signalSchemas, name, payload);
  const reply = await deliverSignalScript.run(
    sender.redis,
    [keys.record, keys.signalIds, keys.signalsOf(name), keys.signalCursors],
    [signalId, JSON.stringify({ id: signalId, payload: payload ?? null }), name, DEFAULT_WAIT_KEY_SECONDS],
  );
  if (reply === -2) throw new RunNotFoundError(runId);
  if (Array.isArray(reply)) throw new RunEndedError(runId, String(reply[1]));
  if (reply === 0) return { signalId, duplicate: true };
  await wakeRun(sender, runId, true);
  return { signalId, duplicate: false };
}

/** Checks the payload against the JSON Schema the run's wait recorded for `name`, if any. */
async function checkAgainstSchema(redis: Redis, schemasKey: string, name: string, payload: unknown) {
  const text = await redis.hget(schemasKey, name);
  if (text === null) return;
  let schema: z.ZodType;
  try {
    schema = z.fromJSONSchema(JSON.parse(text));
  } catch {
    // A schema with no zod form here: the wait checks the payload with its own zod schema.
    return;
  }
  const parsed = schema.safeParse(payload);
  if (parsed.success) return;
  throw new InvalidSignalPayloadError(
    name,
    parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
  );
}
