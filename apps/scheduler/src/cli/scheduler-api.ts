import { setTimeout as delay } from 'node:timers/promises';
import type {
  RunEvent,
  RunList,
  RunRecord,
  RunTree,
  ScheduleInfo,
  StoredConversation,
  WorkerInfo,
} from '@flotilla/runtime/client';
import { ApiRequestError } from './api-request-error.js';
import { parseSse } from './parse-sse.js';
import { SchedulerUnreachableError } from './scheduler-unreachable-error.js';
import { SilenceWatchdog } from './silence-watchdog.js';

/** How long a request may wait for the scheduler's answer, or an event stream for its next chunk (heartbeats come every 15 s). */
const SILENCE_LIMIT_MS = 30_000;

/**
 * How a follower (`events`, `submit --wait`, `runs tree`) rides out a scheduler restart or a
 * dropped connection: this many tries in a row, waiting `initialDelayMs`, doubling up to
 * `maxDelayMs` (about 20 s in all by default), then {@link SchedulerUnreachableError}.
 */
export interface ReconnectPolicy {
  attempts: number;
  initialDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { attempts: 10, initialDelayMs: 200, maxDelayMs: 3000 };

/** Where the API is and how to authenticate. */
export interface SchedulerApiOptions {
  /** @example 'http://127.0.0.1:8080' */
  url: string;
  /** Sent as a bearer token when set. */
  token?: string | undefined;
  /** @default DEFAULT_RECONNECT */
  reconnect?: ReconnectPolicy;
}

/** The body of `POST /runs`. */
export interface SubmitBody {
  agentId: string;
  input?: unknown;
  runId?: string;
  conversationId?: string;
  /** Checked by the API (`enqueue`, `reject`, `interrupt`, `rollback`). */
  onConflict?: string;
  scope?: Record<string, unknown>[];
}

/**
 * A small HTTP client of the scheduler API (what the `flotilla` CLI uses), on `fetch`.
 * Every method throws {@link ApiRequestError} when the API answers an error.
 */
export class SchedulerApi {
  readonly #url: string;
  readonly #token: string | undefined;
  readonly #reconnect: ReconnectPolicy;

  constructor(options: SchedulerApiOptions) {
    this.#url = options.url.replace(/\/+$/, '');
    this.#token = options.token;
    this.#reconnect = options.reconnect ?? DEFAULT_RECONNECT;
  }

  /** `GET /runs`: `query` holds the query string's fields. */
  async listRuns(query: Record<string, string | number | undefined>): Promise<RunList> {
    const params = new URLSearchParams();
    for (const [name, value] of Object.entries(query))
      if (value !== undefined) params.set(name, String(value));
    const search = params.size > 0 ? `?${params}` : '';
    return (await this.#json('GET', `/runs${search}`)) as RunList;
  }

  /** `GET /runs/{id}/export`: the run as a run export (checked by the caller). */
  async exportRun(runId: string): Promise<unknown> {
    return this.#json('GET', `/runs/${encodeURIComponent(runId)}/export`);
  }

  /** `GET /runs/{id}/tree`, retried like a follower across a scheduler restart. */
  async getRunTree(runId: string): Promise<RunTree> {
    return this.#retrying(() =>
      this.#json('GET', `/runs/${encodeURIComponent(runId)}/tree`),
    ) as Promise<RunTree>;
  }

  /**
   * `POST /runs` retried like a follower across a scheduler restart: only for a submission with
   * a `runId`, which the API makes idempotent (the same submission again is the same run).
   */
  async submitPatiently(body: SubmitBody & { runId: string }): Promise<{ runId: string }> {
    return this.#retrying(() => this.submit(body));
  }

  /** `GET /runs/{id}`, retried like a follower across a scheduler restart. */
  async getRunPatiently(runId: string): Promise<RunRecord> {
    return this.#retrying(() => this.getRun(runId));
  }

  async submit(body: SubmitBody): Promise<{ runId: string }> {
    return (await this.#json('POST', '/runs', body)) as { runId: string };
  }

  async getRun(runId: string): Promise<RunRecord> {
    return (await this.#json('GET', `/runs/${encodeURIComponent(runId)}`)) as RunRecord;
  }

  async cancel(runId: string): Promise<{ runId: string; status?: string }> {
    return (await this.#json('POST', `/runs/${encodeURIComponent(runId)}/cancel`)) as { runId: string };
  }

  /** `POST /runs/{id}/signals/{name}` with `{ payload, id? }`. */
  async signal(runId: string, name: string, payload: unknown, id?: string): Promise<unknown> {
    const path = `/runs/${encodeURIComponent(runId)}/signals/${encodeURIComponent(name)}`;
    return this.#json('POST', path, { payload, ...(id !== undefined && { id }) });
  }

  /** `POST /runs/{id}/approvals/{callId}` with the answer. */
  async answerApproval(
    runId: string,
    callId: string,
    answer: { approved: boolean; args?: Record<string, unknown>; reason?: string },
  ): Promise<unknown> {
    const path = `/runs/${encodeURIComponent(runId)}/approvals/${encodeURIComponent(callId)}`;
    return this.#json('POST', path, answer);
  }

  async listSchedules(): Promise<ScheduleInfo[]> {
    return ((await this.#json('GET', '/schedules')) as { schedules: ScheduleInfo[] }).schedules;
  }

  async saveSchedule(body: Record<string, unknown>): Promise<ScheduleInfo> {
    return (await this.#json('POST', '/schedules', body)) as ScheduleInfo;
  }

  async removeSchedule(id: string): Promise<{ id: string; removed: boolean }> {
    return (await this.#json('DELETE', `/schedules/${encodeURIComponent(id)}`)) as {
      id: string;
      removed: boolean;
    };
  }

  async listWorkers(): Promise<WorkerInfo[]> {
    return ((await this.#json('GET', '/workers')) as { workers: WorkerInfo[] }).workers;
  }

  async getConversation(conversationId: string, version?: number): Promise<StoredConversation> {
    const query = version === undefined ? '' : `?version=${version}`;
    return (await this.#json(
      'GET',
      `/conversations/${encodeURIComponent(conversationId)}${query}`,
    )) as StoredConversation;
  }

  /**
   * The run's events from the start, then live, ending after `run-end`. When the connection
   * drops or the scheduler restarts before `run-end`, it reconnects with `Last-Event-ID` (so
   * each event comes once), backing off per the reconnect policy; a received event resets it.
   * @throws SchedulerUnreachableError when the reconnect attempts run out
   * @throws ApiRequestError when the API refuses (4xx: no such run, not allowed)
   */
  async *events(runId: string): AsyncGenerator<RunEvent> {
    let lastEventId: string | undefined;
    let failures = 0;
    for (;;) {
      try {
        const headers: Record<string, string> =
          lastEventId === undefined ? {} : { 'last-event-id': lastEventId };
        const watchdog = new SilenceWatchdog(SILENCE_LIMIT_MS);
        try {
          const path = `/runs/${encodeURIComponent(runId)}/events`;
          const response = await this.#fetch('GET', path, undefined, headers, watchdog);
          if (!response.body) throw new Error('the event stream had no body');
          for await (const message of parseSse(heard(response.body, watchdog))) {
            const event = JSON.parse(message.data) as RunEvent;
            failures = 0;
            if (message.id !== undefined) lastEventId = message.id;
            yield event;
            if (event.type === 'run-end') return;
          }
          throw new Error('the event stream ended before run-end');
        } finally {
          watchdog.stop();
        }
      } catch (error) {
        failures += 1;
        await this.#backOff(failures, error);
      }
    }
  }

  /** Calls `request` until it answers, retrying what a restart causes (see {@link events}). */
  async #retrying<T>(request: () => Promise<T>): Promise<T> {
    for (let failures = 1; ; failures++) {
      try {
        return await request();
      } catch (error) {
        await this.#backOff(failures, error);
      }
    }
  }

  /** Waits before try `failures + 1`, or throws: refusals at once, lost connections when tries run out. */
  async #backOff(failures: number, error: unknown): Promise<void> {
    if (ApiRequestError.is(error) && error.status < 500) throw error;
    const { attempts, initialDelayMs, maxDelayMs } = this.#reconnect;
    if (failures >= attempts) throw new SchedulerUnreachableError(this.#url, failures, error);
    await delay(Math.min(maxDelayMs, initialDelayMs * 2 ** (failures - 1)));
  }

  async #json(method: string, path: string, body?: unknown): Promise<unknown> {
    const watchdog = new SilenceWatchdog(SILENCE_LIMIT_MS);
    try {
      const response = await this.#fetch(method, path, body, {}, watchdog);
      return await response.json();
    } finally {
      watchdog.stop();
    }
  }

  async #fetch(
    method: string,
    path: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
    watchdog?: SilenceWatchdog,
  ): Promise<Response> {
    const headers: Record<string, string> = { ...extraHeaders };
    if (this.#token) headers.authorization = `Bearer ${this.#token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers };
    if (watchdog) init.signal = watchdog.signal;
    if (body !== undefined) init.body = JSON.stringify(body);
    const response = await fetch(`${this.#url}${path}`, init);
    if (response.ok) return response;
    const text = await response.text();
    let error: { name?: string; message?: string } | undefined;
    try {
      error = (JSON.parse(text) as { error?: { name?: string; message?: string } }).error;
    } catch {
      // not JSON: reported with the raw text below
    }
    throw new ApiRequestError(
      response.status,
      error?.name ?? `HTTP ${response.status}`,
      error?.message ?? text,
    );
  }
}

/** The chunks of `body`, telling `watchdog` of each. */
async function* heard(
  body: AsyncIterable<Uint8Array>,
  watchdog: SilenceWatchdog,
): AsyncGenerator<Uint8Array> {
  for await (const chunk of body) {
    watchdog.heard();
    yield chunk;
  }
}
