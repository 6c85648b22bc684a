import { RunNotFoundError, type StreamedRunEvent } from '@flotilla/runtime/client';
import { createRoute, z } from '@hono/zod-openapi';
import { type SSEStreamingApi, streamSSE } from 'hono/streaming';
import { InvalidLastEventIdError } from '../errors/http-errors.js';
import { clientFor } from '../http/client-for.js';
import { errorAnswer, withPublicError } from '../http/public-error.js';
import { defineApiRoute, errorResponses, runIdParamsSchema } from './api-route.js';

/** How often a comment line is sent while no event comes, so proxies keep the stream open. */
const HEARTBEAT_MS = 15_000;
/** A run event id: `<ms>-<seq>`, as sent in `id:`. */
const EVENT_ID = /^\d{1,16}-\d{1,16}$/;

const headersSchema = z.object({
  'last-event-id': z
    .string()
    .optional()
    .openapi({
      param: { name: 'last-event-id', in: 'header' },
      description: 'Resume after this event id (`<ms>-<seq>`); anything else is a 400.',
      example: '1718000000000-0',
    }),
});

/**
 * `GET /runs/{id}/events` → a Server-Sent Events stream of the run's events: every event from
 * the start (or after `Last-Event-ID`), then live, ending after `run-end` — also when
 * `Last-Event-ID` is at or past the run's end (the final `run-end` is sent again, so an
 * EventSource can close). Each message has `event: <type>`, `id: <event id>` and `data: <event
 * JSON>`; errors have no stack. Open streams are capped per principal (429), and every stream
 * of the scheduler shares one blocking Redis connection. 404 `RunNotFoundError` (as JSON) for
 * an unknown id, 400 `InvalidLastEventIdError` for an id that is not `<ms>-<seq>`.
 */
export const streamRunEvents = defineApiRoute(
  createRoute({
    method: 'get',
    path: '/runs/{id}/events',
    summary: 'Follow a run: its events as Server-Sent Events',
    request: { params: runIdParamsSchema, headers: headersSchema },
    responses: {
      200: {
        description:
          'text/event-stream of run events, ending after `run-end`. Event types: run-start, generation-start, ' +
          'generation-end, model-turn-start, model-turn-end, tool-call, tool-result, child-start, child-end, ' +
          'reborn, run-suspended, progress (a `reportProgress` value), run-end.',
        content: { 'text/event-stream': { schema: z.string() } },
      },
      ...errorResponses(404, 429),
    },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    const header = c.req.header('last-event-id')?.trim();
    if (header !== undefined && header !== '' && !EVENT_ID.test(header)) throw new InvalidLastEventIdError();
    const after = header === '' ? undefined : header;
    const client = clientFor(c);
    const release = c.var.api.streams.open(c.var.principal);
    try {
      if (!(await client.getRun(id))) throw new RunNotFoundError(id);
    } catch (error) {
      release();
      throw error;
    }
    const { logger } = c.var.api;
    c.header('cache-control', 'no-store');
    c.header('x-accel-buffering', 'no'); // nginx: do not buffer the stream
    return streamSSE(c, async (stream) => {
      const disconnect = new AbortController();
      stream.onAbort(() => disconnect.abort());
      c.req.raw.signal.addEventListener('abort', () => disconnect.abort(), { once: true });
      const heartbeat = setInterval(() => {
        stream.write(': keep-alive\n\n').catch(() => disconnect.abort());
      }, HEARTBEAT_MS);
      try {
        await stream.write(': flotilla run events\n\n');
        const run = client.run(id);
        let ended = false;
        for await (const event of run.events(
          after === undefined ? { signal: disconnect.signal } : { after, signal: disconnect.signal },
        )) {
          await send(stream, event);
          ended = event.type === 'run-end';
        }
        // Resumed at or past the end: send the final run-end again, so the client knows it is over.
        if (!ended && after !== undefined && !disconnect.signal.aborted)
          for await (const event of run.events({ signal: disconnect.signal }))
            if (event.type === 'run-end') await send(stream, event);
      } catch (error) {
        if (!disconnect.signal.aborted) {
          logger.warn({ runId: id, err: error }, 'run event stream failed');
          await stream.writeSSE({ event: 'error', data: JSON.stringify(errorAnswer(error).body.error) });
        }
      } finally {
        clearInterval(heartbeat);
        release();
      }
    });
  },
);

function send(stream: SSEStreamingApi, { eventId, ...event }: StreamedRunEvent): Promise<void> {
  return stream.writeSSE({ event: event.type, id: eventId, data: JSON.stringify(withPublicError(event)) });
}
