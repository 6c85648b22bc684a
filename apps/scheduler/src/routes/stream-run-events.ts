import type { ServerResponse } from 'node:http';
import { type RunEvent, RunNotFoundError } from '@flotilla/runtime';
import type { RouteContext } from './route-context.js';

/** How often a comment line is sent while no event comes, so proxies keep the stream open. */
const HEARTBEAT_MS = 15_000;

/**
 * `GET /runs/:id/events` → a Server-Sent Events stream of the run's events: every event from
 * the start, then live, ending after `run-end`. Each message has `event: <type>`, `id: <n>`
 * (0-based position) and `data: <event JSON>`. 404 `RunNotFoundError` (as JSON) for an
 * unknown id.
 */
export async function streamRunEvents(context: RouteContext): Promise<void> {
  const runId = context.params.id ?? '';
  if (!(await context.client.getRun(runId))) throw new RunNotFoundError(runId);
  const { request, response } = context;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no', // nginx: do not buffer the stream
  });
  response.write(': flotilla run events\n\n');
  const heartbeat = setInterval(() => response.write(': keep-alive\n\n'), HEARTBEAT_MS);
  const disconnected = new Promise<'disconnected'>((resolve) =>
    request.once('close', () => resolve('disconnected')),
  );
  const iterator = context.client.run(runId).events()[Symbol.asyncIterator]();
  try {
    await pipeEvents(iterator, response, disconnected);
  } finally {
    clearInterval(heartbeat);
    // Ends the reader; if a read is pending it ends when that read returns.
    void iterator.return?.().catch(() => undefined);
    response.end();
  }
}

async function pipeEvents(
  iterator: AsyncIterator<RunEvent>,
  response: ServerResponse,
  disconnected: Promise<'disconnected'>,
): Promise<void> {
  for (let position = 0; ; position += 1) {
    const next = await Promise.race([iterator.next(), disconnected]);
    if (next === 'disconnected' || next.done) return;
    response.write(`event: ${next.value.type}\nid: ${position}\ndata: ${JSON.stringify(next.value)}\n\n`);
  }
}
