/**
 * HTTP requests with full control over what is sent (any Host, Origin, Content-Type, chunked
 * or stalled bodies), on `node:http` without connection reuse: what `fetch` does not allow.
 */
import { type ClientRequest, type IncomingHttpHeaders, request } from 'node:http';

/** An answer, its body read to the end. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON. */
  json<T = { error: { name: string; message: string; data?: Record<string, unknown> } }>(): T;
}

/** Options of {@link rawRequest}. */
export interface RawRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** The whole body, sent with a Content-Length. */
  body?: string;
  /** Body chunks, sent chunked (no Content-Length) 20 ms apart; stops once an answer arrives. */
  chunks?: Iterable<string>;
  /** After `body`/`chunks`, keep the request open (a stalled sender) instead of ending it. */
  stall?: boolean;
}

/** Sends one request to `base` + `path` and resolves with the answer (whatever the server does with the rest). */
export function rawRequest(base: string, path: string, options: RawRequestOptions = {}): Promise<RawAnswer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    let answered = false;
    const headers: Record<string, string> = { ...options.headers };
    // A given Content-Length wins (a body that promises more than it sends).
    if (options.body !== undefined && headers['content-length'] === undefined)
      headers['content-length'] = String(Buffer.byteLength(options.body));
    const sent: ClientRequest = request(
      {
        host: url.hostname,
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method: options.method ?? 'GET',
        headers,
        agent: false,
      },
      (response) => {
        answered = true;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('error', () => undefined);
        response.on('end', () => {
          sent.destroy();
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            text,
            json: <T>() => JSON.parse(text) as T,
          });
        });
      },
    );
    // The server may answer and close while the body is still being sent (413, 408): the
    // write fails (EPIPE, ECONNRESET) but the answer may still be read; give it a moment.
    sent.on('error', (error) => {
      if (!answered) setTimeout(() => !answered && reject(error), 2000).unref();
    });
    const finish = () => {
      if (!options.stall) sent.end();
    };
    if (options.body !== undefined) {
      sent.write(options.body);
      finish();
      return;
    }
    if (options.chunks !== undefined) {
      const iterator = options.chunks[Symbol.iterator]();
      const writeNext = () => {
        if (answered || sent.destroyed) return;
        const next = iterator.next();
        if (next.done) return finish();
        // Paced, so the answer to an oversized body arrives before the next write, not an EPIPE.
        sent.write(next.value, () => setTimeout(writeNext, 20));
      };
      writeNext();
      return;
    }
    finish();
  });
}

/** An open response stream (SSE), held until closed. */
export interface OpenStream {
  status: number;
  /** Everything received so far. */
  received(): string;
  close(): void;
}

/** Sends a GET and resolves once the answer's headers and first bytes arrived; the stream stays open. */
export function openStream(base: string, path: string, headers: Record<string, string>): Promise<OpenStream> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: url.hostname, port: url.port, path: url.pathname, headers, agent: false },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('error', () => undefined);
        response.once('data', () =>
          resolve({ status: response.statusCode ?? 0, received: () => text, close: () => sent.destroy() }),
        );
        response.on('data', (chunk: string) => {
          text += chunk;
        });
      },
    );
    sent.on('error', (error) => {
      if (!sent.destroyed) reject(error);
    });
    sent.end();
  });
}
