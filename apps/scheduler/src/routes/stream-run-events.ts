import type { IncomingMessage } from 'node:http';
import { RunNotFoundError } from '@flotilla/runtime';
import type { RunEventsOptions } from '@flotilla/runtime/client';
import type { RouteContext } from './route-context.js';

/** How often a comment line is sent while no event comes, so proxies keep the stream open. */
const HEARTBEAT_MS = 15_000;

/**
 * `GET /runs/:id/events` → a Server-Sent Events stream of the run's events: every event from
 * the start, then live, ending after `run-end`. Each message has `event: <type>`, `id: <event
 * id>` (the event's id in the run's stream, increasing) and `data: <event JSON>`. A client that
 * reconnects with `Last-Event-ID` gets only the events after that one. When the client
 * disconnects, the run's event reader is aborted and its Redis connection closed at once.
 * 404 `RunNotFoundError` (as JSON) for an unknown id.
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
  const disconnect = new AbortController();
  const onClose = () => disconnect.abort();
  response.once('close', onClose);
  try {
    const options: RunEventsOptions = { signal: disconnect.signal };
    const after = lastEventId(request);
    if (after !== undefined) options.after = after;
    for await (const { eventId, ...event } of context.client.run(runId).events(options)) {
      response.write(`event: ${event.type}\nid: ${eventId}\ndata: ${JSON.stringify(event)}\n\n`);
    }
  } finally {
    clearInterval(heartbeat);
    response.off('close', onClose);
    response.end();
  }
}

/** The `Last-Event-ID` header when it is a stream id (`<ms>-<seq>`); anything else reads from the start. */
function lastEventId(request: IncomingMessage): string | undefined {
  const header = request.headers['last-event-id'];
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && /^\d+-\d+$/.test(value.trim()) ? value.trim() : undefined;
}
