/** Small HTTP helpers for the scheduler API tests, on `fetch`. */
import { parseSse } from '@flotilla/scheduler';
import { API_TOKEN } from './use-scheduler.js';

/** A JSON answer. */
export interface JsonAnswer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/** Options of {@link call}. */
export interface CallOptions {
  /** A JSON value to send, or raw text with `raw`. */
  body?: unknown;
  raw?: string;
  /** @default the tests' API token; `null` sends no Authorization header */
  token?: string | null;
}

/** Calls `method path` on `base` and parses the JSON answer. */
export async function call<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<JsonAnswer<T>> {
  const headers: Record<string, string> = {};
  const token = options.token === undefined ? API_TOKEN : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const init: RequestInit = { method, headers };
  if (options.raw !== undefined) init.body = options.raw;
  else if (options.body !== undefined) init.body = JSON.stringify(options.body);
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, init);
  return { status: response.status, headers: response.headers, body: (await response.json()) as T };
}

/** An event as received over SSE: the `event:` field and the parsed `data:`. */
export interface ReceivedEvent {
  event: string;
  id: string | undefined;
  data: Record<string, unknown>;
}

/**
 * Reads `GET /runs/:id/events` to its end (the server ends it after `run-end`); with
 * `lastEventId`, as a reconnecting EventSource would (`Last-Event-ID`).
 */
export async function readEvents(
  base: string,
  runId: string,
  options: { lastEventId?: string } = {},
): Promise<{ contentType: string | null; events: ReceivedEvent[] }> {
  const headers: Record<string, string> = { authorization: `Bearer ${API_TOKEN}` };
  if (options.lastEventId !== undefined) headers['last-event-id'] = options.lastEventId;
  const response = await fetch(`${base}/runs/${runId}/events`, { headers });
  if (!response.ok || !response.body)
    throw new Error(`events answered ${response.status}: ${await response.text()}`);
  const events: ReceivedEvent[] = [];
  for await (const message of parseSse(response.body))
    events.push({
      event: message.event,
      id: message.id,
      data: JSON.parse(message.data) as Record<string, unknown>,
    });
  return { contentType: response.headers.get('content-type'), events };
}

/** Polls `GET /runs/:id` until `done(record)` holds (every 50 ms, at most 20 s). */
export async function waitForRun(
  base: string,
  runId: string,
  done: (record: Record<string, unknown>) => boolean,
): Promise<Record<string, unknown>> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const { body } = await call(base, 'GET', `/runs/${runId}`);
    if (done(body)) return body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${runId} never reached the expected state`);
}
