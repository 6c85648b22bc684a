import type { RunEvent, RunRecord, StoredConversation, WorkerInfo } from '@flotilla/runtime/client';
import { ApiRequestError } from './api-request-error.js';
import { parseSse } from './parse-sse.js';

/** Where the API is and how to authenticate. */
export interface SchedulerApiOptions {
  /** @example 'http://127.0.0.1:8080' */
  url: string;
  /** Sent as a bearer token when set. */
  token?: string | undefined;
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

  constructor(options: SchedulerApiOptions) {
    this.#url = options.url.replace(/\/+$/, '');
    this.#token = options.token;
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

  /** The run's events from the start, then live, ending after `run-end`. */
  async *events(runId: string): AsyncGenerator<RunEvent> {
    const response = await this.#fetch('GET', `/runs/${encodeURIComponent(runId)}/events`);
    if (!response.body) return;
    for await (const message of parseSse(response.body)) yield JSON.parse(message.data) as RunEvent;
  }

  async #json(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await this.#fetch(method, path, body);
    return response.json();
  }

  async #fetch(method: string, path: string, body?: unknown): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.#token) headers.authorization = `Bearer ${this.#token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = { method, headers };
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
