import type { Redis } from 'ioredis';
import { RUN_EVENT_FIELD } from './redis-run-event-sink.js';
import type { RunEvent } from './run-event.js';

/** Options of {@link readRunEventStream}. */
export interface ReadRunEventStreamOptions {
  /** A connection of its own: XREAD BLOCK holds it. The reader closes it when it ends. */
  connection: Redis;
  /** The run's stream key (`runKeys(…).events`). */
  key: string;
  /** Longest single XREAD BLOCK, in ms; between blocks `isOver` is asked. @default 1000 */
  blockMs?: number;
  /**
   * Asked whenever a block passes with no new event: `true` ends the reader (e.g. the run
   * ended but its stream was trimmed or expired, so `run-end` will never be read).
   */
  isOver?: () => Promise<boolean>;
}

/**
 * Reads a run's event stream from the start and live, yielding each event in order, and ends
 * after `run-end`. Uses XREAD BLOCK on the dedicated `connection` and closes it when the
 * iteration ends for any reason (done, `break`, error), so no waiter leaks.
 */
export async function* readRunEventStream(options: ReadRunEventStreamOptions): AsyncGenerator<RunEvent> {
  const { connection, key } = options;
  const blockMs = options.blockMs ?? 1000;
  let lastId = '0';
  try {
    let over = false;
    for (;;) {
      // Once the run is over, read what is left without blocking: run-end may have landed
      // between the last empty block and the `isOver` check.
      const reply = over
        ? await connection.xread('COUNT', 100, 'STREAMS', key, lastId)
        : await connection.xread('COUNT', 100, 'BLOCK', blockMs, 'STREAMS', key, lastId);
      const entries = reply?.[0]?.[1] ?? [];
      if (entries.length === 0) {
        if (over) return;
        over = options.isOver !== undefined && (await options.isOver());
        continue;
      }
      for (const [id, fields] of entries) {
        lastId = id;
        const event = parseEvent(fields);
        if (!event) continue;
        yield event;
        if (event.type === 'run-end') return;
      }
    }
  } finally {
    connection.disconnect();
  }
}

function parseEvent(fields: string[]): RunEvent | undefined {
  const index = fields.indexOf(RUN_EVENT_FIELD);
  const text = index >= 0 ? fields[index + 1] : undefined;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as RunEvent;
  } catch {
    return undefined;
  }
}
