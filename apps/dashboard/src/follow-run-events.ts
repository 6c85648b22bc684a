// The scheduler's own SSE parser (pure, no Node API), shared with the CLI rather than copied.
import { parseSse } from '../../scheduler/src/cli/parse-sse.ts';
import type { ApiClient } from './api-client.ts';
import type { RunEvent } from './api-types.ts';

/** How long to wait before reconnecting a dropped stream (doubling up to the maximum). */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 8000;
/** The scheduler sends a comment every 15 s: a stream silent for three of them is dead, and reopened. */
const SILENCE_MS = 45_000;

/** Options of {@link followRunEvents}. */
export interface FollowOptions {
  /** Each event, in order, once (a reconnect resumes after the last one seen). */
  onEvent: (event: RunEvent) => void;
  /** The stream is (re)connecting, or failed with an error it will retry after. */
  onState?: (state: 'live' | 'reconnecting' | 'ended', error?: unknown) => void;
  /** Stops following. */
  signal: AbortSignal;
}

/**
 * Follows `GET /runs/{id}/events` until `run-end`. The browser's `EventSource` cannot send an
 * `Authorization` header, so the stream is read with `fetch` and a stream reader, and a dropped
 * connection is reopened with `Last-Event-ID` set to the last event seen: the server resumes
 * right after it, so no event is shown twice or missed. (The alternative, a session cookie, would
 * need CSRF defences on every POST; a header cannot be sent by another site's page.)
 */
export async function followRunEvents(api: ApiClient, runId: string, options: FollowOptions): Promise<void> {
  let lastEventId: string | undefined;
  let delay = RETRY_FIRST_MS;
  while (!options.signal.aborted) {
    const connection = new AbortController();
    const stop = () => connection.abort();
    options.signal.addEventListener('abort', stop, { once: true });
    try {
      const headers: Record<string, string> = { accept: 'text/event-stream' };
      if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
      const response = await api.open(
        `/runs/${encodeURIComponent(runId)}/events`,
        headers,
        connection.signal,
      );
      if (!response.body) throw new Error('the event stream has no body');
      options.onState?.('live');
      const chunks = watchSilence(response.body as unknown as AsyncIterable<Uint8Array>, connection);
      for await (const message of parseSse(chunks)) {
        if (message.event === 'error') throw new Error(message.data);
        if (message.id !== undefined) lastEventId = message.id;
        const event = JSON.parse(message.data) as RunEvent;
        options.onEvent(event);
        delay = RETRY_FIRST_MS;
        if (event.type === 'run-end') {
          options.onState?.('ended');
          return;
        }
      }
    } catch (error) {
      if (options.signal.aborted) return;
      if (isFinal(error)) throw error;
      options.onState?.('reconnecting', error);
    } finally {
      options.signal.removeEventListener('abort', stop);
      connection.abort();
    }
    await pause(delay, options.signal);
    delay = Math.min(delay * 2, RETRY_MAX_MS);
  }
}

/** The chunks of `body`, aborting `connection` when none comes for {@link SILENCE_MS}. */
async function* watchSilence(
  body: AsyncIterable<Uint8Array>,
  connection: AbortController,
): AsyncGenerator<Uint8Array> {
  let timer = setTimeout(() => connection.abort(new Error('the event stream went silent')), SILENCE_MS);
  try {
    for await (const chunk of body) {
      clearTimeout(timer);
      timer = setTimeout(() => connection.abort(new Error('the event stream went silent')), SILENCE_MS);
      yield chunk;
    }
  } finally {
    clearTimeout(timer);
  }
}

/** A 4xx answer (not found, unauthorized …) does not get better by retrying; 429 does. */
function isFinal(error: unknown): boolean {
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500 && status !== 429;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
