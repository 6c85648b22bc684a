/**
 * The one shape every durable effect has (Temporal's pattern): the caller asserted it runs in
 * an agent context and took the next position; this returns the recorded outcome when the
 * journal has one, or does the work and records it. A different request at a recorded position
 * is a {@link NonDeterminismError}.
 */
import type { Attributes } from '@opentelemetry/api';
import type { AgentContext } from '../context/agent-context.js';
import type { InFlightStep } from '../context/in-flight-steps.js';
import { journalEntryText } from '../context/journal-entry-text.js';
import type { JournalEntry, JournalEntryKind, RunServices } from '../context/run-services.js';
import { NonDeterminismError } from '../errors/run-errors.js';
import { deserializeError, serializeError } from '../errors/serialize-error.js';
import { SETTLED } from '../shared/settled.js';
import { inSpan, SpanAttribute, tracingOff } from '../shared/tracing.js';
import type { UsageStats } from '../usage/usage-stats.js';
import { changedParts, fingerprintInFormatOf } from './fingerprint.js';

/** One durable effect to serve from the journal or execute. */
export interface DurableStep<T> {
  kind: JournalEntryKind;
  position: string;
  /** What is asked; compared with the recorded fingerprint on replay. */
  fingerprint: string;
  /**
   * The same request's fingerprints in older formats (`model-turn:…` for `model-turn/v2:…`): a
   * recorded fingerprint is compared with the one of its own format, so journals recorded before
   * a fingerprint widened still replay. @default none
   */
  olderFingerprints?: readonly string[] | (() => readonly string[]);
  /** Does the work; its value must be JSON (it is stored). */
  execute: () => Promise<T>;
  /**
   * Whether a success may be recorded with the run's next write instead of before the step
   * returns (`RunJournal.record`'s `deferred`): only for work that may safely run again when the
   * record is lost in a crash (a model turn). Every other step settles such records before its
   * work starts. A function is asked after the work, which settles those records first like any
   * other step (a child call that read an ended child's outcome from its record, which a replay
   * reads again). @default false
   */
  deferRecord?: boolean | (() => boolean);
  /** Whether a failure is recorded (replayed as the same error) or left for a retry. @default never */
  recordFailure?: (error: unknown) => boolean;
  /** The usage the step spent, stored with its outcome (success or recorded failure). @default none */
  usage?: () => UsageStats | undefined;
  /** The step's integer costs, stored with its outcome when there are any (a model turn). @default none */
  costs?: () => Record<string, number> | undefined;
  /** With `usage`: the part of it that was the agent's own (a tool's `recordToolUsage` calls). @default none */
  ownUsage?: () => UsageStats | undefined;
  /**
   * `JSON.stringify(value)` when the step wrote it already (to check the value's bounds), else
   * `undefined`; the live run then reads, and the journal stores, that text. @default none: written here
   */
  jsonText?: (value: T) => string | undefined;
  /**
   * With `jsonText`: what `JSON.parse` of that text gives, when the step built it already (a
   * checked model answer's copy), else `undefined`: the live run reads it instead of parsing the
   * text back. @default none: parsed here
   */
  readBack?: (value: T) => T | undefined;
  /** Called with the recorded entry before a replay serves it (to rebuild usage). @default none */
  onReplay?: (recorded: JournalEntry) => void;
  /**
   * The step's span name and attributes, or a function giving them (asked only when tracing is
   * on: a live step then builds none). @default `flotilla.<kind>`, none
   */
  span?: StepSpan<T> | (() => StepSpan<T>);
}

/** The span of a durable step. */
export interface StepSpan<T> {
  name: string;
  attributes?: Attributes;
  describe?: (value: T) => Attributes;
}

/** The outcome of a durable step and whether it came from the journal. */
export interface DurableResult<T> {
  value: T;
  replayed: boolean;
}

/**
 * Serves `step` from the journal or executes and records it.
 * @throws NonDeterminismError when the journal holds another kind or fingerprint at the position
 * @throws the recorded error (rehydrated by name) on replay of a recorded failure
 * @throws AbortError when the agent is cancelled before the work starts
 */
export function durableStep<T>(context: AgentContext, step: DurableStep<T>): Promise<DurableResult<T>> {
  // Not an async function: the promise it returns is `serveStep`'s (or `inSpan`'s) own.
  const recorded = context.run.journal.get(step.position);
  // A child call has no span of its own: a suspended run never ends it (the child run's job
  // spans carry the tree); its run span is the parent of the child's job. Without a tracer
  // provider a span is a no-op: no attributes, closure, async wrapper or span per step then.
  if (step.kind === 'child' || tracingOff()) return serveStep(context, step, recorded);
  const spec = typeof step.span === 'function' ? step.span() : step.span;
  const attributes = {
    ...spec?.attributes,
    [SpanAttribute.position]: step.position,
    [SpanAttribute.replayed]: recorded !== undefined,
  };
  // Replayed steps get a span too (marked), so a trace shows what each attempt went through.
  return inSpan(spec?.name ?? `flotilla.${step.kind}`, attributes, async (span) => {
    const result = await serveStep(context, step, recorded);
    if (spec?.describe) span.setAttributes(spec.describe(result.value));
    return result;
  });
}

/**
 * Not async, nor is anything under it on a live step's usual path (nothing deferred to settle,
 * nothing to flush, a deferred record): the step's work and its record are one `.then` (an
 * async layer costs two promises, each paying the async-context hooks).
 */
function serveStep<T>(
  context: AgentContext,
  step: DurableStep<T>,
  recorded: JournalEntry | undefined,
): Promise<DurableResult<T>> {
  const { run } = context;
  const { replayOnly } = run.services;
  try {
    if (recorded)
      return Promise.resolve({ value: replayRecorded(recorded, step, replayOnly), replayed: true });
    // An abandoned (suspended) execution must not do or record anything more.
    if (run.suspended) return new Promise<never>(() => {});
    context.throwIfAborted();
    // A replay-only run (`replayRun`) executes nothing.
    if (replayOnly)
      return replayOnly.unrecorded(context, step).then((value) => ({ value: value as T, replayed: true }));
  } catch (error) {
    return Promise.reject(error);
  }
  const inFlight = run.steps.begin(step.position);
  // A function `deferRecord` is asked after the work: until then the step settles like any other.
  if (step.deferRecord === true) return executeAndRecord(context, step, inFlight);
  // The model turns recorded lazily before this must be stored before work that must not run
  // twice; a cancel (or a takeover) that came while they were written stops it, as before.
  const settled = run.settleRecords();
  if (settled === SETTLED) return executeAndRecord(context, step, inFlight);
  return settled.then(
    () => executeAndRecord(context, step, inFlight),
    (error: unknown) => {
      run.steps.end(inFlight);
      throw error;
    },
  );
}

function replayRecorded<T>(
  recorded: JournalEntry,
  step: DurableStep<T>,
  replayOnly: RunServices['replayOnly'],
): T {
  if (!replayOnly) return replayEntry<T>(recorded, step, step.onReplay);
  try {
    return replayEntry<T>(recorded, step, step.onReplay);
  } catch (error) {
    if (NonDeterminismError.is(error)) replayOnly.diverged(error);
    throw error;
  }
}

/**
 * Runs the step's work and records its outcome; the step stays in flight until the outcome is
 * recorded (a run must not suspend with a record in flight).
 */
function executeAndRecord<T>(
  context: AgentContext,
  step: DurableStep<T>,
  inFlight: InFlightStep,
): Promise<DurableResult<T>> {
  const { run } = context;
  try {
    // A cancel that came while earlier records were settled stops the work (checked again here).
    if (step.deferRecord !== true) context.throwIfAborted();
  } catch (error) {
    run.steps.end(inFlight);
    return Promise.reject(error);
  }
  let work: Promise<T>;
  try {
    work = run.steps.run(inFlight, step.execute);
  } catch (error) {
    work = Promise.reject(error);
  }
  const ended = (): void => run.steps.end(inFlight);
  return work.then(
    (value) => recordValue(context, step, value, ended),
    (error: unknown) => {
      if (!step.recordFailure?.(error)) {
        ended();
        throw error;
      }
      return recordFailure(context, step, error, ended);
    },
  );
}

/**
 * Records a success, then calls `ended`; the result at once when nothing had to be awaited (the
 * usual case), else one `.then` on what was.
 */
function recordValue<T>(
  context: AgentContext,
  step: DurableStep<T>,
  value: T,
  ended: () => void,
): DurableResult<T> | Promise<DurableResult<T>> {
  let flushed: Promise<void>;
  try {
    // Memory written during the step must be stored before the step counts as done.
    flushed = context.run.flushWrites();
  } catch (error) {
    ended();
    throw error;
  }
  if (flushed === SETTLED) return recordFlushedValue(context, step, value, ended);
  return flushed.then(() => recordFlushedValue(context, step, value, ended), endedAndThrown(ended));
}

/** A rejection handler that calls `ended`, then rethrows. */
function endedAndThrown(ended: () => void): (error: unknown) => never {
  return (error) => {
    ended();
    throw error;
  };
}

function recordFlushedValue<T>(
  context: AgentContext,
  step: DurableStep<T>,
  value: T,
  ended: () => void,
): DurableResult<T> | Promise<DurableResult<T>> {
  let result: DurableResult<T>;
  let written: Promise<void>;
  try {
    // The value as it will read back from the journal, so a live run and its replay see the same
    // thing (`undefined` properties vanish, dates become strings); its text is what is stored.
    const text = value === undefined ? undefined : (step.jsonText?.(value) ?? JSON.stringify(value));
    const stored: unknown = value === undefined ? undefined : readBack(step, value, text as string);
    const recorded = entry(step, { ok: true, value: stored });
    const entryText = journalEntryText(recorded, text);
    const deferred = typeof step.deferRecord === 'function' ? step.deferRecord() : step.deferRecord;
    written = context.run.record(
      step.position,
      recorded,
      deferred ? { deferred: true, text: entryText } : { text: entryText },
    );
    result = { value: stored as T, replayed: false };
  } catch (error) {
    ended();
    throw error;
  }
  if (written === SETTLED) {
    ended();
    return result;
  }
  return written.then(() => {
    ended();
    return result;
  }, endedAndThrown(ended));
}

/**
 * What `JSON.parse(text)` gives for `value`'s text, without parsing when it is known: the copy the
 * step built, or the value itself when it is a scalar that reads back as itself.
 */
function readBack<T>(step: DurableStep<T>, value: T, text: string): unknown {
  if (step.jsonText) {
    const built = step.readBack?.(value);
    if (built !== undefined) return built;
  }
  if (readsBackAsItself(value)) return value;
  return JSON.parse(text);
}

/** A string, boolean or finite number (not -0, which reads back as 0): JSON gives it back as is. */
function readsBackAsItself(value: unknown): boolean {
  const type = typeof value;
  if (type === 'string' || type === 'boolean') return true;
  return type === 'number' && Number.isFinite(value) && !Object.is(value, -0);
}

/** Records a failure the step records, then calls `ended` and rethrows it. */
function recordFailure<T>(
  context: AgentContext,
  step: DurableStep<T>,
  error: unknown,
  ended: () => void,
): Promise<never> {
  const { run } = context;
  let recording: Promise<void>;
  try {
    recording = run
      .flushWrites()
      .then(() => run.record(step.position, entry(step, { ok: false, error: serializeError(error) })));
  } catch (failure) {
    recording = Promise.reject(failure);
  }
  return recording.then(() => {
    ended();
    throw error;
  }, endedAndThrown(ended));
}

/**
 * The recorded outcome of `step` (its value, or its error thrown).
 * @throws NonDeterminismError when the journal holds another kind or fingerprint at the position
 */
export function replayEntry<T>(
  recorded: JournalEntry,
  step: Pick<DurableStep<T>, 'kind' | 'fingerprint' | 'position' | 'olderFingerprints'>,
  onReplay?: (recorded: JournalEntry) => void,
): T {
  const older =
    typeof step.olderFingerprints === 'function' ? step.olderFingerprints() : step.olderFingerprints;
  const expected = fingerprintInFormatOf(recorded.fingerprint, [step.fingerprint, ...(older ?? [])]);
  if (recorded.kind !== step.kind || recorded.fingerprint !== expected) {
    throw new NonDeterminismError(
      step.position,
      { kind: recorded.kind, fingerprint: recorded.fingerprint },
      { kind: step.kind, fingerprint: expected },
      changedParts(recorded.fingerprint, expected),
    );
  }
  onReplay?.(recorded);
  if (!recorded.outcome.ok) throw deserializeError(recorded.outcome.error);
  return recorded.outcome.value as T;
}

function entry(
  step: Pick<DurableStep<unknown>, 'kind' | 'fingerprint' | 'usage' | 'ownUsage' | 'costs'>,
  outcome: JournalEntry['outcome'],
): JournalEntry {
  const recorded: JournalEntry = { kind: step.kind, fingerprint: step.fingerprint, outcome, at: Date.now() };
  const costs = step.costs?.();
  if (costs !== undefined && Object.keys(costs).length > 0) recorded.costs = costs;
  const usage = step.usage?.();
  if (usage !== undefined) {
    recorded.usage = usage;
    const own = step.ownUsage?.();
    if (own !== undefined) recorded.ownUsage = own;
  }
  return recorded;
}
