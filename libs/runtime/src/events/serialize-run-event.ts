/**
 * An event's JSON text for the run's stream, bounded: events carry outside values (input, tool
 * arguments and results, output), and an event that cannot be written must never break the run
 * or the worker. A field that makes the event too deep, too large or not writable is replaced by
 * `{ "$omitted": "<why>" }`; the event itself is always written.
 */
import { inspectJson, type JsonLimits, jsonTextWithinBounds } from '../json/json-bounds.js';
import type { RunEvent } from './run-event.js';

/** Levels and bytes an event adds around the bounded values it carries (`args`, `result` …). */
const ENVELOPE = { depth: 8, bytes: 16 * 1024 };

/** A field kept whatever the event's size: small fields say which event it was. */
const MAX_KEPT_FIELD_BYTES = 4 * 1024;

/** The text to write, and why payload fields were left out (when they were). */
export interface SerializedRunEvent {
  text: string;
  omitted?: string;
}

/** The bounds of an event under `limits` (one object per limits object: a worker has one). */
const eventBounds = new WeakMap<JsonLimits, JsonLimits>();

function boundsOf(limits: JsonLimits): JsonLimits {
  let bounds = eventBounds.get(limits);
  if (
    bounds === undefined ||
    bounds.maxDepth !== limits.maxDepth + ENVELOPE.depth ||
    bounds.maxBytes !== limits.maxBytes + ENVELOPE.bytes
  ) {
    bounds = { maxDepth: limits.maxDepth + ENVELOPE.depth, maxBytes: limits.maxBytes + ENVELOPE.bytes };
    eventBounds.set(limits, bounds);
  }
  return bounds;
}

/** Writes `event` as JSON within `limits` (plus the event's envelope); never throws. */
export function serializeRunEvent(event: RunEvent, limits: JsonLimits): SerializedRunEvent {
  const bounds = boundsOf(limits);
  // Stringify first and accept the text when it is within bounds (what JSON.stringify writes, the
  // lenient walk accepts but for depth and size): one native pass and a scan of the text instead
  // of walking the event and then stringifying it. Otherwise the walk decides, as before.
  const fast = stringify(event);
  if (fast !== undefined && jsonTextWithinBounds(fast, bounds)) return { text: fast };
  const { problem } = inspectJson(event, { ...bounds, lenient: true });
  if (!problem && fast !== undefined) return { text: fast };
  const reason = problem ? describeProblem(problem, bounds) : 'not writable as JSON';
  const reduced: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(event)) {
    const field = inspectJson(value, {
      maxDepth: bounds.maxDepth,
      maxBytes: MAX_KEPT_FIELD_BYTES,
      lenient: true,
    });
    reduced[key] = field.problem ? { $omitted: reason } : value;
  }
  return {
    text: stringify(reduced) ?? JSON.stringify({ type: event.type, $omitted: reason }),
    omitted: reason,
  };
}

function stringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

function describeProblem(
  problem: NonNullable<ReturnType<typeof inspectJson>['problem']>,
  bounds: { maxDepth: number; maxBytes: number },
): string {
  switch (problem.kind) {
    case 'too-deep':
      return `nested deeper than ${bounds.maxDepth} levels at "${problem.path}"`;
    case 'too-large':
      return `more than ${bounds.maxBytes} bytes of JSON`;
    case 'not-json':
      return `not JSON at "${problem.path}" (${problem.reason})`;
  }
}
