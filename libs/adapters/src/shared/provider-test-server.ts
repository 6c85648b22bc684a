/**
 * A real HTTP server on 127.0.0.1 that speaks just enough of a provider's wire protocol for
 * adapter tests: the official SDK reaches it through its base URL, the test queues replies
 * (JSON, SSE chunks, errors, a request that never answers) and reads back every request.
 * Test support only; no package entry point exports it.
 */
import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the server received; `body` is the parsed JSON (or the raw text). */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1beta/models/gemini-2.5-flash:generateContent`. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** How the server answers one request. */
export type TestReply =
  | { kind: 'json'; body: unknown; status?: number; headers?: Record<string, string> }
  | {
      kind: 'sse';
      chunks: unknown[];
      /** Append OpenAI Chat Completions' closing `data: [DONE]`. @default false */
      done?: boolean;
    }
  | { kind: 'hang' };

/** A started server; `close()` it in `afterEach`/`afterAll`. */
export interface ProviderTestServer {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queues replies for the next requests, in order; the last one keeps answering after that. */
  reply(...replies: TestReply[]): void;
  close(): Promise<void>;
}

/** Options of {@link startProviderTestServer}. */
export interface ProviderTestServerOptions {
  /**
   * The provider's request rules (see `provider-wire-rules.ts`): a request that breaks one is
   * answered with HTTP 400 and the problems, as the provider would, and no queued reply is used.
   */
  validate?: (body: unknown) => string[];
}

/** Starts a server on a free port of 127.0.0.1. */
export async function startProviderTestServer(
  options: ProviderTestServerOptions = {},
): Promise<ProviderTestServer> {
  const requests: RecordedRequest[] = [];
  let queue: TestReply[] = [];
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: parse(text),
      });
      const problems = options.validate?.(parse(text)) ?? [];
      if (problems.length > 0) {
        answer(response, rejection(problems));
        return;
      }
      const reply = queue.length > 1 ? queue.shift() : queue[0];
      answer(
        response,
        reply ?? { kind: 'json', status: 500, body: { error: { message: 'no reply queued' } } },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...replies) => {
      queue = [...replies];
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads a recorded one-shot response (`.json`). */
export async function readJsonFixture(url: URL): Promise<unknown> {
  return JSON.parse(await readFile(url, 'utf8'));
}

/** Reads recorded stream chunks (`.chunks.txt`: one JSON value per line). */
export async function readChunksFixture(url: URL): Promise<unknown[]> {
  const text = await readFile(url, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}

/** A 400 every SDK reads its message from (`error.message`, and Gemini's `status`). */
function rejection(problems: string[]): TestReply {
  const message = problems.join('; ');
  return {
    kind: 'json',
    status: 400,
    body: {
      type: 'error',
      error: { type: 'invalid_request_error', code: 400, status: 'INVALID_ARGUMENT', message },
    },
  };
}

function answer(response: ServerResponse, reply: TestReply): void {
  if (reply.kind === 'hang') return;
  if (reply.kind === 'json') {
    response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
    response.end(JSON.stringify(reply.body));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const chunk of reply.chunks) response.write(sseEvent(chunk));
  if (reply.done) response.write('data: [DONE]\n\n');
  response.end();
}

function sseEvent(chunk: unknown): string {
  // Responses API events name themselves in `type`; echo it as the SSE event, as OpenAI does.
  const type = typeof chunk === 'object' && chunk !== null && 'type' in chunk ? chunk.type : undefined;
  const event = typeof type === 'string' ? `event: ${type}\n` : '';
  return `${event}data: ${JSON.stringify(chunk)}\n\n`;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', reject);
  });
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}
