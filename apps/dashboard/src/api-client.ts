import { ApiError } from './api-error.ts';

/** How long one API request may take before it is aborted. */
const REQUEST_TIMEOUT_MS = 15_000;

/**
 * Calls the scheduler API on the page's own origin with the token the login form gave. The
 * token lives in this object only (memory): never in a URL, a cookie or storage, so a reload
 * asks for it again and nothing on disk or in history can leak it.
 */
export class ApiClient {
  readonly #token: string;
  /** Called once an answer says the token is not (or no longer) accepted. */
  readonly #onUnauthorized: () => void;

  constructor(token: string, onUnauthorized: () => void) {
    this.#token = token;
    this.#onUnauthorized = onUnauthorized;
  }

  /** The headers every request carries (the bearer token when one was given). */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.#token === '' ? extra : { ...extra, authorization: `Bearer ${this.#token}` };
  }

  get<T>(path: string, query: Record<string, string | number | undefined> = {}): Promise<T> {
    return this.#request<T>('GET', withQuery(path, query));
  }

  /** A POST, with `body` sent as JSON when given. */
  post<T>(path: string, body?: unknown): Promise<T> {
    return this.#request<T>('POST', path, body);
  }

  /** A raw request (for the event stream), with the token; the caller reads the body. */
  async open(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
    const response = await fetch(path, { headers: this.headers(headers), signal, cache: 'no-store' });
    if (!response.ok) throw await this.#errorOf(response);
    return response;
  }

  async #request<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    const json: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    try {
      response = await fetch(path, {
        method,
        headers: this.headers({ accept: 'application/json', ...json }),
        ...(body !== undefined && { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        cache: 'no-store',
      });
    } catch (error) {
      throw new ApiError(
        0,
        'NetworkError',
        `The scheduler did not answer ${method} ${path}: ${String(error)}`,
      );
    }
    if (!response.ok) throw await this.#errorOf(response);
    return (await response.json()) as T;
  }

  async #errorOf(response: Response): Promise<ApiError> {
    if (response.status === 401) this.#onUnauthorized();
    const body = (await response.json().catch(() => undefined)) as
      | { error?: { name?: unknown; message?: unknown } }
      | undefined;
    const name = typeof body?.error?.name === 'string' ? body.error.name : `HTTP ${response.status}`;
    const message = typeof body?.error?.message === 'string' ? body.error.message : response.statusText;
    return new ApiError(response.status, name, message);
  }
}

/** `path?key=value…` with the defined values, URL-encoded. */
export function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}
