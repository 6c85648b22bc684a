/**
 * `waitForSignal`: the run waits (holding no slot) for a signal sent with `client.signal(runId,
 * name, payload)` or `POST /runs/:id/signals/:name`. Signals of one name form a queue in the
 * run's keys, filled as they arrive (a signal sent before the wait is kept), and each wait takes
 * the next one into the journal in one atomic step (`lua/take-signal-4`): a replay returns the
 * same payload, a loop waiting on one name many times takes each signal once.
 */
import type { z } from 'zod';
import type { AgentContext } from '../context/agent-context.js';
import { requireAgentContext } from '../context/context-store.js';
import type { JournalEntry } from '../context/run-services.js';
import { durableStep, replayEntry } from '../engine/durable-step.js';
import { suspendUntil } from '../engine/suspend-until.js';
import { deserializeError } from '../errors/serialize-error.js';
import {
  DurableWaitUnavailableError,
  InvalidSignalPayloadError,
  InvalidWaitError,
  SignalTimeoutError,
} from '../errors/wait-errors.js';
import { zodToJsonSchema } from '../hooks/equip-tool.js';
import { isValidId } from '../jobs/id-rule.js';
import { refuseInsideTool } from './refuse-inside-tool.js';
import { MAX_SLEEP_MS } from './sleep.js';

/** Options of {@link waitForSignal}. */
export interface WaitForSignalOptions<S extends z.ZodType> {
  /**
   * What the payload must look like: checked when the signal is sent while the run waits with
   * it (the sender gets `InvalidSignalPayloadError`, HTTP 400, and the run keeps waiting), and
   * when the wait takes one that came earlier (the wait throws `InvalidSignalPayloadError`).
   * @default any JSON
   */
  schema?: S;
  /** Give up after this long (from the wait's start): `SignalTimeoutError`. @default no limit */
  timeoutMs?: number;
}

/** A signal as queued and journaled. */
interface TakenSignal {
  id: string;
  payload: unknown;
}

/**
 * Waits for the next signal `name` sent to this run and returns its payload.
 * @throws SignalTimeoutError when `timeoutMs` passed first (journaled: a replay throws it again)
 * @throws InvalidSignalPayloadError when the payload does not match `schema`
 * @throws InvalidWaitError for a name that breaks the id rule, or a bad `timeoutMs`
 * @throws WaitInsideToolError inside a tool handler; DurableWaitUnavailableError in embedded mode
 * @throws AbortError when the run is cancelled (or times out) while it waits
 */
export async function waitForSignal<S extends z.ZodType = z.ZodType<unknown>>(
  name: string,
  options: WaitForSignalOptions<S> = {},
): Promise<z.output<S>> {
  const context = requireAgentContext('waitForSignal');
  refuseInsideTool('waitForSignal');
  if (!isValidId(name))
    throw new InvalidWaitError(
      'signal name',
      'expected 1 to 200 ASCII letters, digits, `.`, `_`, `-` or `:`',
    );
  const { timeoutMs, schema } = options;
  if (timeoutMs !== undefined && (!Number.isInteger(timeoutMs) || timeoutMs < 1 || timeoutMs > MAX_SLEEP_MS))
    throw new InvalidWaitError('timeoutMs', `expected a whole number of ms from 1 to ${MAX_SLEEP_MS}`);
  if (!context.run.services.waits) throw new DurableWaitUnavailableError('signal');
  const jsonSchema = schema ? zodToJsonSchema(schema, `the schema of signal "${name}"`) : undefined;
  const position = context.nextPosition('signal', name);
  const timeoutAt = timeoutMs === undefined ? undefined : await startOf(context, position, name, timeoutMs);
  const fingerprint = `signal:${name}`;
  const { value, replayed } = await durableStep<TakenSignal>(context, {
    kind: 'signal',
    position,
    fingerprint,
    execute: () => takeSignal(context, { name, position, fingerprint, jsonSchema, timeoutAt, timeoutMs }),
    recordFailure: (error) => SignalTimeoutError.is(error),
  });
  if (!replayed)
    context.run.emit({
      type: 'signal-received',
      callPath: context.callPath,
      name,
      signalId: value.id,
      payload: value.payload,
    });
  if (!schema) return value.payload as z.output<S>;
  const parsed = schema.safeParse(value.payload);
  if (parsed.success) return parsed.data;
  throw new InvalidSignalPayloadError(
    name,
    parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`),
  );
}

/** When the wait started (journaled: its timeout is the same on every replay) plus `timeoutMs`. */
async function startOf(context: AgentContext, position: string, name: string, timeoutMs: number) {
  const { value } = await durableStep(context, {
    kind: 'signal',
    position: `${position}/start`,
    fingerprint: `signal-start:${name}`,
    execute: async () => Date.now(),
  });
  return value + timeoutMs;
}

async function takeSignal(
  context: AgentContext,
  wait: {
    name: string;
    position: string;
    fingerprint: string;
    jsonSchema: Record<string, unknown> | undefined;
    timeoutAt: number | undefined;
    timeoutMs: number | undefined;
  },
): Promise<TakenSignal> {
  const waits = context.run.services.waits;
  if (!waits) throw new DurableWaitUnavailableError('signal');
  // Recorded before the first look, so a sender is checked against it from now on.
  await waits.expectSignal(wait.name, wait.jsonSchema);
  for (;;) {
    const entry = await waits.takeSignal(wait.name, wait.position, wait.fingerprint);
    if (entry) return takenValue(entry, wait);
    if (wait.timeoutAt !== undefined && Date.now() >= wait.timeoutAt)
      throw new SignalTimeoutError(wait.name, wait.timeoutMs ?? 0);
    const info: Record<string, unknown> = { name: wait.name };
    if (wait.jsonSchema) info.schema = wait.jsonSchema;
    await suspendUntil(context, {
      waitingFor: { kind: 'signal', detail: wait.name },
      ...(wait.timeoutAt !== undefined && { wakeAt: wait.timeoutAt }),
      info,
    });
  }
}

/** The signal in an entry the take found or wrote (a timeout recorded first is thrown). */
function takenValue(entry: JournalEntry, wait: { position: string; fingerprint: string }): TakenSignal {
  if (!entry.outcome.ok) throw deserializeError(entry.outcome.error);
  return replayEntry<TakenSignal>(entry, {
    kind: 'signal',
    fingerprint: wait.fingerprint,
    position: wait.position,
  });
}
