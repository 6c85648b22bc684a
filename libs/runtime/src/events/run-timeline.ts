/**
 * The compacted timeline of a finished run: its whole event stream as one JSON string, with the
 * redundancy dropped and nothing else. A Redis stream costs ~4.7 KB even for six small events
 * (its first node is allocated whole), and most of each event repeats the one before it.
 *
 * Lossless: decoding gives back every event with its `eventId`, field for field, so a reader
 * that resumes after an id (`RunHandle.events({ after })`, SSE `Last-Event-ID`) sees the same
 * events whether the run was read live or after its end. What is dropped:
 * - any field equal to the last value that field had in an earlier event (`runId`, the
 *   `callPath`, a model turn's position and index from its start to its end, a tool's name and
 *   call id from call to result, the model, an input repeated on a replay, zero usage…);
 * - the `run-end` fields the run record holds (status, output, error, usage, modelCalls);
 * - stream ids and times: each is a delta from the previous one.
 *
 * Format `{ "v": 1, "e": [entry…] }` (`"full": true` when every field is stored), entry `[idMsDelta, idSeq, idMs - at, type, fields, absent?]`:
 * `fields` holds what changed, `absent` names fields the event lacks although an earlier event
 * had them. A `run-end` without `status` takes its outcome from the record.
 */
import { isDeepStrictEqual } from 'node:util';
import { emptyUsage } from '@flotilla/ir';
import type { StreamedRunEvent } from './redis-run-event-stream.js';
import type { RunEndEvent } from './run-event.js';

/** What a `run-end` says that the run record holds too. */
export type RunEndOutcome = Pick<RunEndEvent, 'status' | 'output' | 'error' | 'usage' | 'modelCalls'>;

type Fields = Record<string, unknown>;
type Entry = [number, number, number, string, Fields, string[]?];

/** The fields of each event type (besides `type`, `at`) that may be inherited. */
const FIELDS: Record<string, readonly string[]> = {
  'run-start': ['agentId', 'input'],
  'run-end': [],
  'generation-start': ['agentId', 'generation'],
  'generation-end': ['agentId', 'generation', 'endReason'],
  'model-turn-start': ['position', 'turnIndex', 'modelId', 'provider'],
  'model-turn-end': ['position', 'turnIndex', 'usage', 'finishReason', 'replayed'],
  'tool-call': ['name', 'args', 'toolCallId'],
  'tool-result': ['name', 'toolCallId', 'ok', 'result', 'error', 'replayed'],
  reborn: ['agentId', 'generation'],
  'child-start': ['agentId', 'childCallPath', 'childRunId'],
  'child-end': ['agentId', 'childCallPath', 'ok', 'replayed', 'error', 'childRunId'],
  'run-suspended': ['pendingChildren', 'waitingFor', 'usage', 'modelCalls'],
  'approval-requested': ['toolCallId', 'tool', 'args'],
  'approval-resolved': ['toolCallId', 'tool', 'approved', 'args', 'reason'],
  'signal-received': ['name', 'signalId', 'payload'],
  'sleep-started': ['until'],
  'rate-limit-wait': ['provider', 'modelId', 'waitMs', 'reason'],
  'budget-update': ['delta', 'own', 'aggregate'],
};
const COMMON = ['runId', 'callPath'];
const OUTCOME = ['status', 'output', 'error', 'usage', 'modelCalls'] as const;

/**
 * Encodes a finished run's events (as read from its stream, `run-end` last). `outcome` is what
 * the record says of the run's end. Lossless for any events (the property test in
 * `run-timeline.test.ts`), so it is not decoded again to check: that self-check was ~4% of a
 * worker's CPU per run (issue 15). Timelines stored `full` by earlier versions still decode.
 */
export function encodeRunTimeline(
  runId: string,
  events: readonly StreamedRunEvent[],
  outcome: RunEndOutcome,
): string {
  return JSON.stringify({ v: 1, e: encodeEntries(runId, events, outcome) });
}

/** What every field starts as, before any event: what most events say. */
function seeded(runId: string): Map<string, unknown> {
  return new Map<string, unknown>([
    ['runId', runId],
    ['usage', emptyUsage()],
    ['replayed', false],
    ['ok', true],
  ]);
}

/** The events of an encoded timeline, each with its original `eventId`. */
export function decodeRunTimeline(
  runId: string,
  text: string,
  outcome: RunEndOutcome | undefined,
): StreamedRunEvent[] {
  const { e: entries, full } = JSON.parse(text) as { e: Entry[]; full?: boolean };
  // A full timeline stores every field of every event: nothing is inherited.
  const sticky = full ? new Map<string, unknown>() : seeded(runId);
  const events: StreamedRunEvent[] = [];
  let ms = 0;
  for (const [msDelta, seq, lag, type, stored, absent = []] of entries) {
    ms += msDelta;
    const event: Fields = {};
    for (const name of full ? [] : [...COMMON, ...(FIELDS[type] ?? [])]) {
      if (sticky.has(name) && !absent.includes(name)) event[name] = sticky.get(name);
    }
    if (type === 'run-end' && !('status' in stored) && outcome) copyOutcome(outcome, event);
    Object.assign(event, stored);
    for (const [name, value] of Object.entries(event)) sticky.set(name, value);
    events.push({ ...event, type, at: ms - lag, eventId: `${ms}-${seq}` } as unknown as StreamedRunEvent);
  }
  return events;
}

function encodeEntries(runId: string, events: readonly StreamedRunEvent[], outcome: RunEndOutcome): Entry[] {
  const sticky = seeded(runId);
  const entries: Entry[] = [];
  let previousMs = 0;
  for (const event of events) {
    const { eventId, type, at, ...fields } = event as unknown as Fields & {
      eventId: string;
      type: string;
      at: number;
    };
    const [ms, seq] = eventId.split('-').map(Number) as [number, number];
    const entry: Entry = [ms - previousMs, seq, ms - at, type, {}];
    previousMs = ms;
    const inheritable = inheritableOf(type);
    // What the event says, before the outcome fields of a run-end are dropped, is what sticks.
    const said = type === 'run-end' ? { ...fields } : fields;
    if (type === 'run-end' && isDeepStrictEqual(pickOutcome(fields), copyOutcome(outcome, {}))) {
      for (const name of OUTCOME) delete fields[name];
    }
    const absent = inheritable.filter((name) => sticky.has(name) && !(name in fields));
    for (const name in fields) {
      const value = fields[name];
      if (!inheritable.includes(name) || !sticky.has(name) || !sameValue(sticky.get(name), value)) {
        entry[4][name] = value;
      }
    }
    if (absent.length > 0) entry[5] = absent;
    for (const name in said) sticky.set(name, said[name]);
    entries.push(entry);
  }
  return entries;
}

const INHERITABLE = new Map<string, readonly string[]>(
  Object.entries(FIELDS).map(([type, names]) => [type, [...COMMON, ...names]]),
);

/** The fields an event of `type` may inherit: computed once per type, not per event. */
function inheritableOf(type: string): readonly string[] {
  return INHERITABLE.get(type) ?? COMMON;
}

/** `isDeepStrictEqual`, without its cost on the primitives most fields hold. */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return Object.is(a, b);
  return isDeepStrictEqual(a, b);
}

function pickOutcome(fields: Fields): Fields {
  const picked: Fields = {};
  for (const name of OUTCOME) if (name in fields) picked[name] = fields[name];
  return picked;
}

function copyOutcome(outcome: RunEndOutcome, into: Fields): Fields {
  into.status = outcome.status;
  if (outcome.status === 'succeeded') into.output = outcome.output;
  if (outcome.error !== undefined) into.error = outcome.error;
  into.usage = outcome.usage;
  into.modelCalls = outcome.modelCalls;
  return into;
}
