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
import { jsonObjectMembers } from './json-object-members.js';
import type { StreamedRunEvent } from './redis-run-event-stream.js';
import type { RunEndEvent } from './run-event.js';
import type { WrittenEvents } from './run-write-batch.js';

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
const OUTCOME_FIELDS: ReadonlySet<string> = new Set(OUTCOME);

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
  const encoder = new EntryEncoder(runId, outcome);
  return events.map((event) => encoder.entry(event));
}

/** Encodes a timeline's entries one event at a time, each against the events before it. */
class EntryEncoder {
  readonly #sticky: Map<string, unknown>;
  readonly #outcome: RunEndOutcome;
  #previousMs = 0;

  constructor(runId: string, outcome: RunEndOutcome) {
    this.#sticky = seeded(runId);
    this.#outcome = outcome;
  }

  /** The entry of `event`, read from the stream (with its `eventId`). */
  entry(event: StreamedRunEvent): Entry {
    const fields = event as unknown as Fields & { eventId: string; at: number };
    const [msText, seqText] = fields.eventId.split('-');
    const ms = Number(msText);
    const entry = [ms - this.#previousMs, Number(seqText), ms - fields.at, ...this.body(fields)] as Entry;
    this.#previousMs = ms;
    return entry;
  }

  /**
   * What an entry holds after its stream id and time (`[type, fields, absent?]`), for an event
   * (its `type`, `at` and `eventId` are not fields). Reads the event without copying it.
   */
  body(event: Fields): [string, Fields, string[]?] {
    const type = event.type as string;
    const stored: Fields = {};
    const sticky = this.#sticky;
    const inheritable = inheritableOf(type);
    // A run-end that says what the record says leaves its outcome fields to the record; what the
    // event says, outcome included, is what sticks.
    const dropOutcome =
      type === 'run-end' && isDeepStrictEqual(pickOutcome(event), copyOutcome(this.#outcome, {}));
    let absent: string[] | undefined;
    for (const name of inheritable) {
      if (!sticky.has(name) || name in event) continue;
      if (absent) absent.push(name);
      else absent = [name];
    }
    for (const name in event) {
      if (name === 'type' || name === 'at' || name === 'eventId') continue;
      const value = event[name];
      if (dropOutcome && OUTCOME_FIELDS.has(name)) continue;
      if (!inheritable.includes(name) || !sticky.has(name) || !sameValue(sticky.get(name), value)) {
        stored[name] = value;
      }
    }
    for (const name in event)
      if (name !== 'type' && name !== 'at' && name !== 'eventId') sticky.set(name, event[name]);
    return absent ? [type, stored, absent] : [type, stored];
  }
}

/**
 * A timeline encoded in two parts, for a run whose last events get their stream ids in the
 * same Lua script that stores the timeline (`finish-run-12`): `head` is the timeline's text up
 * to and including the entries of the events already in the stream (each followed by a
 * comma); `tails` are, for each of the remaining events in order, the text of its entry after
 * the three numbers that depend on its stream id (`"type",{fields}]`), and `ats` their times.
 * The script writes each such entry as `[msDelta,seq,ms-at,` + tail, joins them with commas and
 * closes with `]}`: byte for byte what {@link encodeRunTimeline} gives for the same events and ids.
 */
export interface SplitTimeline {
  head: string;
  /** The ms part of the last stream id in `head` (0 when it holds no entry). */
  previousMs: number;
  tails: string[];
  ats: number[];
}

/**
 * Encodes the events of a run that are in its stream already (`written`: their texts, with
 * their ids) and those about to be appended after them (`pending`: their texts, `run-end`
 * last); see {@link SplitTimeline}. The texts are read field by field, not parsed: an entry
 * holds its fields' texts as the stream got them (i15-events8: parsing every event again and
 * stringifying its entry was most of the finish's timeline cost). `undefined` when an event's
 * `at` is not an integer (the script's arithmetic would not give the same text) or a text is not
 * a JSON object: the caller compacts from the stream then. `outcome` holds JSON values (what the
 * record reads back).
 */
export function encodeSplitRunTimeline(
  runId: string,
  written: WrittenEvents,
  pending: readonly string[],
  outcome: RunEndOutcome,
): SplitTimeline | undefined {
  const encoder = new TextEntryEncoder(runId, outcome);
  let head = '{"v":1,"e":[';
  let previousMs = 0;
  for (let index = 0; index < written.texts.length; index++) {
    const tail = encoder.body(written.texts[index] as string);
    if (tail === undefined) return undefined;
    const id = written.ids[index] ?? '';
    const dash = id.indexOf('-');
    if (dash === -1) return undefined;
    const ms = integerAt(id, 0, dash);
    head += `[${ms - previousMs},${integerAt(id, dash + 1, id.length)},${ms - encoder.at},${tail},`;
    previousMs = ms;
  }
  const tails: string[] = [];
  const ats: number[] = [];
  for (const text of pending) {
    const tail = encoder.body(text);
    if (tail === undefined) return undefined;
    tails.push(tail);
    ats.push(encoder.at);
  }
  return { head, previousMs, tails, ats };
}

/** The text of each field name as a JSON key (`"name"`): one string per name. */
const KEY_TEXTS = new Map<string, string>();

function keyText(name: string): string {
  let text = KEY_TEXTS.get(name);
  if (text === undefined) {
    text = JSON.stringify(name);
    KEY_TEXTS.set(name, text);
  }
  return text;
}

const TYPE_KEY = keyText('type');
const AT_KEY = keyText('at');
const EVENT_ID_KEY = keyText('eventId');
const OUTCOME_KEYS: ReadonlySet<string> = new Set(OUTCOME.map(keyText));
const RUN_ID_KEY = keyText('runId');
/** What {@link seeded} starts each field as but `runId`, as text: the same for every run. */
const SEEDED_TEXTS: readonly [string, string][] = [...seeded('')]
  .filter(([name]) => name !== 'runId')
  .map(([name, value]) => [keyText(name), JSON.stringify(value)]);

/**
 * Where a field's last value is: `text.slice(start, end)`, sliced only once compared with a value
 * as long (`slice`); updated in place.
 */
interface ValueAt {
  text: string;
  start: number;
  end: number;
  slice: string | undefined;
}

function wholeText(text: string): ValueAt {
  return { text, start: 0, end: text.length, slice: text };
}

/**
 * Where each field's last value is, by key text: a known key's in an array at the key's slot
 * (a map that grows with each new key cost ~1.7 KB per run), any other key's in a map.
 */
class StickyValues {
  readonly #known: (ValueAt | undefined)[] = new Array(KEY_SLOTS.size).fill(undefined);
  #other: Map<string, ValueAt> | undefined;

  get(key: string): ValueAt | undefined {
    const slot = KEY_SLOTS.get(key);
    return slot === undefined ? this.#other?.get(key) : this.#known[slot];
  }

  set(key: string, value: ValueAt): void {
    const slot = KEY_SLOTS.get(key);
    if (slot !== undefined) this.#known[slot] = value;
    else {
      this.#other ??= new Map();
      this.#other.set(key, value);
    }
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** Forgets every value (for the next run). */
  clear(): void {
    this.#known.fill(undefined);
    this.#other?.clear();
  }
}

/**
 * {@link EntryEncoder} on event texts: the same entries, built from the fields' texts where
 * the event's text has them (`jsonObjectMembers`: offsets, no slices); fields stored one after
 * the other are copied as one piece. What sticks is where each field's last text is; two texts
 * that differ may still be equal values (the same members in another order: then they are as
 * long), which is checked on the parsed values, as the object encoder does.
 */
class TextEntryEncoder {
  /** Where each field's last value is, by key text (`"name"`). */
  readonly #sticky = STICKY;
  readonly #outcome: RunEndOutcome;
  /** The outcome's fields as text, by key text (built at the first `run-end`). */
  #outcomeTexts: Map<string, string | undefined> | undefined;
  /** The `at` of the event {@link body} read last. */
  at = 0;

  constructor(runId: string, outcome: RunEndOutcome) {
    this.#sticky.clear();
    for (const [key, text] of SEEDED_TEXTS) this.#sticky.set(key, wholeText(text));
    this.#sticky.set(RUN_ID_KEY, wholeText(JSON.stringify(runId)));
    this.#outcome = outcome;
  }

  /** The entry's tail (`"type",{fields}[,absent]]`) of one event text; its `at` is left in {@link at}. */
  body(text: string): string | undefined {
    const offsets = OFFSETS;
    const length = jsonObjectMembers(text, offsets);
    if (length === undefined) return undefined;
    // One string per known key: the lookups below compare them by reference, not by content.
    const keys = KEYS;
    let typeAt = -1;
    let atAt = -1;
    for (let index = 0; index < length; index += 3) {
      const key = keyAt(text, offsets[index] as number, offsets[index + 1] as number);
      if (key === TYPE_KEY) typeAt = index;
      else if (key === AT_KEY) atAt = index;
      keys[index / 3] = key;
    }
    if (typeAt === -1 || atAt === -1) return undefined;
    const typeText = typeTextAt(text, (offsets[typeAt + 1] as number) + 1, offsets[typeAt + 2] as number);
    const at = integerAt(text, (offsets[atAt + 1] as number) + 1, offsets[atAt + 2] as number);
    if (typeText.charCodeAt(0) !== 0x22 || !Number.isSafeInteger(at)) return undefined;
    this.at = at;
    const known = KNOWN_TYPES.get(typeText);
    const type = known?.type ?? typeOf(typeText);
    const inheritable = known?.keys ?? inheritableKeysOf(type);
    const sticky = this.#sticky;
    const dropOutcome = type === 'run-end' && this.#saysOutcome(text, length);
    /** Bit i: the event has `inheritable[i]`. */
    let present = 0;
    let stored = '';
    /** Where the stored fields not copied yet begin (-1: none) and end. */
    let runStart = -1;
    let runEnd = -1;
    for (let index = 0; index < length; index += 3) {
      const key = keys[index / 3] as string;
      const start = (offsets[index + 1] as number) + 1;
      const end = offsets[index + 2] as number;
      let keep = false;
      if (key !== TYPE_KEY && key !== AT_KEY && key !== EVENT_ID_KEY) {
        const slot = inheritable.indexOf(key);
        if (slot !== -1) present |= 1 << slot;
        const previous = sticky.get(key);
        const same = previous === undefined ? DIFFERENT : sameJsonAt(previous, text, start, end);
        keep = slot === -1 || same === DIFFERENT;
        // What the event says sticks, outcome included (the same text is there already).
        if (previous === undefined) sticky.set(key, { text, start, end, slice: undefined });
        else if (same !== SAME_TEXT) {
          previous.text = text;
          previous.start = start;
          previous.end = end;
          previous.slice = undefined;
        }
        if (dropOutcome && OUTCOME_KEYS.has(key)) keep = false;
      }
      if (keep) {
        if (runStart === -1) runStart = offsets[index] as number;
        runEnd = end;
      } else if (runStart !== -1) {
        stored = joined(stored, text.slice(runStart, runEnd));
        runStart = -1;
      }
    }
    if (runStart !== -1) stored = joined(stored, text.slice(runStart, runEnd));
    // The fields this event lacks that an earlier one had (the updates above touched none of them).
    let absent = '';
    for (let slot = 0; slot < inheritable.length; slot++) {
      const key = inheritable[slot] as string;
      if ((present & (1 << slot)) === 0 && sticky.has(key)) absent = joined(absent, key);
    }
    return absent === '' ? `${typeText},{${stored}}]` : `${typeText},{${stored}},[${absent}]]`;
  }

  /** Whether a `run-end`'s outcome fields are the record's (see {@link EntryEncoder.body}). */
  #saysOutcome(text: string, length: number): boolean {
    this.#outcomeTexts ??= outcomeTexts(this.#outcome);
    const offsets = OFFSETS;
    let said = 0;
    for (let index = 0; index < length; index += 3) {
      const key = KEYS[index / 3] as string;
      if (!OUTCOME_KEYS.has(key)) continue;
      const expected = this.#outcomeTexts.get(key);
      if (expected === undefined) return false;
      const start = (offsets[index + 1] as number) + 1;
      if (sameJsonAt(wholeText(expected), text, start, offsets[index + 2] as number) === DIFFERENT)
        return false;
      said += 1;
    }
    // Every field the record says, and no other.
    return said === this.#outcomeTexts.size;
  }
}

/**
 * The current event's members (`jsonObjectMembers`) and their keys, for every encoder: an
 * event is read at once (no encoder reads another event meanwhile), and arrays that grow anew
 * for each run's events were ~0.5 KB per run.
 */
const OFFSETS: number[] = [];
const KEYS: string[] = [];

/** `list` and `item`, comma-separated. */
function joined(list: string, item: string): string {
  return list === '' ? item : `${list},${item}`;
}

/** The key text from `start` to `end`: the one string of a known key, else a slice. */
function keyAt(text: string, start: number, end: number): string {
  return knownTextAt(KNOWN_KEYS, text, start, end);
}

/** The `type` value's text from `start` to `end`: the one string of a known type, else a slice. */
function typeTextAt(text: string, start: number, end: number): string {
  return knownTextAt(KNOWN_TYPE_TEXTS, text, start, end);
}

/** `text.slice(start, end)`, as the one string of `known` (by length) it equals when it does. */
function knownTextAt(known: Map<number, string[]>, text: string, start: number, end: number): string {
  for (const candidate of known.get(end - start) ?? NO_KEYS)
    if (text.startsWith(candidate, start)) return candidate;
  return text.slice(start, end);
}

/** The type a `type` value's text says. */
function typeOf(typeText: string): string {
  return (typeText.includes('\\') ? JSON.parse(typeText) : typeText.slice(1, -1)) as string;
}

/**
 * The number from `start` to `end` (`Number` of the slice), read without slicing when it is a
 * plain integer of at most 15 digits (an event's `at`).
 */
function integerAt(text: string, start: number, end: number): number {
  if (end - start > 15 || end === start) return Number(text.slice(start, end));
  let value = 0;
  for (let at = start; at < end; at++) {
    const digit = text.charCodeAt(at) - 0x30;
    if (digit < 0 || digit > 9) return Number(text.slice(start, end));
    value = value * 10 + digit;
  }
  return value;
}

const NO_KEYS: readonly string[] = [];

/**
 * The outcome's fields as the record says them (`copyOutcome`), as JSON text by key text;
 * `undefined` for a value whose text does not read back as itself (undefined, a number JSON
 * cannot say), which no event text equals.
 */
function outcomeTexts(outcome: RunEndOutcome): Map<string, string | undefined> {
  const texts = new Map<string, string | undefined>();
  const fields = copyOutcome(outcome, {});
  for (const name of OUTCOME) {
    if (!(name in fields)) continue;
    const value = fields[name];
    const readsBack = typeof value !== 'number' || (Number.isFinite(value) && !Object.is(value, -0));
    texts.set(keyText(name), readsBack ? valueText(value) : undefined);
  }
  return texts;
}

/** The statuses as JSON text: a run's status and its model calls need no `JSON.stringify` call. */
const STATUS_TEXTS = new Map<unknown, string>(
  (['succeeded', 'failed', 'cancelled'] satisfies RunEndOutcome['status'][]).map((status) => [
    status,
    JSON.stringify(status),
  ]),
);

/** `JSON.stringify(value)`, for an outcome's field. */
function valueText(value: unknown): string | undefined {
  if (Number.isSafeInteger(value)) return String(value);
  return STATUS_TEXTS.get(value) ?? JSON.stringify(value);
}

const DIFFERENT = 0;
const SAME_TEXT = 1;
const SAME_VALUE = 2;

/**
 * Whether `previous` and `text.slice(start, end)` (JSON texts as `JSON.stringify` writes them)
 * are equal values, as `sameValue` says of their parsed values: the same text, or objects with
 * the same members in another order (the same length, then).
 */
function sameJsonAt(previous: ValueAt, text: string, start: number, end: number): number {
  if (previous.end - previous.start !== end - start) return DIFFERENT;
  // Sliced once per value, compared in place (no slice of the value compared with it).
  previous.slice ??= previous.text.slice(previous.start, previous.end);
  if (text.startsWith(previous.slice, start)) return SAME_TEXT;
  const first = text.charCodeAt(start);
  if (first !== 0x7b && first !== 0x5b) return DIFFERENT;
  const equal = isDeepStrictEqual(JSON.parse(previous.slice), JSON.parse(text.slice(start, end)));
  return equal ? SAME_VALUE : DIFFERENT;
}

const INHERITABLE = new Map<string, readonly string[]>(
  Object.entries(FIELDS).map(([type, names]) => [type, [...COMMON, ...names]]),
);

/** The fields an event of `type` may inherit: computed once per type, not per event. */
function inheritableOf(type: string): readonly string[] {
  return INHERITABLE.get(type) ?? COMMON;
}

const COMMON_KEYS = COMMON.map(keyText);
const INHERITABLE_KEYS = new Map<string, readonly string[]>(
  [...INHERITABLE].map(([type, names]) => [type, names.map(keyText)]),
);

/** Every key text an event type names (`"name"`), each as one string, by length. */
const KNOWN_KEYS = new Map<number, string[]>();
for (const key of KEY_TEXTS.values()) {
  const sameLength = KNOWN_KEYS.get(key.length);
  if (sameLength) sameLength.push(key);
  else KNOWN_KEYS.set(key.length, [key]);
}

/** The text of each event type {@link FIELDS} names (`"run-start"`), by length. */
const KNOWN_TYPE_TEXTS = new Map<number, string[]>();
/** Each of those types and the keys it may inherit, by its text. */
const KNOWN_TYPES = new Map<string, { type: string; keys: readonly string[] }>();
for (const type of Object.keys(FIELDS)) {
  const typeText = JSON.stringify(type);
  const sameLength = KNOWN_TYPE_TEXTS.get(typeText.length);
  if (sameLength) sameLength.push(typeText);
  else KNOWN_TYPE_TEXTS.set(typeText.length, [typeText]);
  KNOWN_TYPES.set(typeText, { type, keys: inheritableKeysOf(type) });
}

/** Each known key text's slot in {@link StickyValues}. */
const KEY_SLOTS = new Map<string, number>([...KEY_TEXTS.values()].map((key, slot) => [key, slot]));

/**
 * The sticky values of the encoder at work: one for all of them, cleared by each, as a timeline
 * is encoded at once (`encodeSplitRunTimeline` runs to its end before another starts); its
 * array made anew per run was ~0.4 KB.
 */
const STICKY = new StickyValues();

/** {@link inheritableOf}, as key texts (`"name"`). */
function inheritableKeysOf(type: string): readonly string[] {
  return INHERITABLE_KEYS.get(type) ?? COMMON_KEYS;
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
