import { ID_PATTERN, ID_RULE, RUN_ID_PATTERN } from '@flotilla/runtime/internals';
import { createRoute, z } from '@hono/zod-openapi';
import { clientFor } from '../http/client-for.js';
import { defineApiRoute, errorResponses, jsonContent } from './api-route.js';

const signalParamsSchema = z.object({
  id: z
    .string()
    .regex(RUN_ID_PATTERN, { error: `must be a run id (${ID_RULE})` })
    .openapi({ param: { name: 'id', in: 'path' }, example: 'run-1' }),
  name: z
    .string()
    .regex(ID_PATTERN, { error: `must be a signal name (${ID_RULE})` })
    .openapi({ param: { name: 'name', in: 'path' }, example: 'payment-received' }),
});

/**
 * The body: `{ payload, id? }`. A body that is not such an envelope (no `payload` field, or
 * other fields) is the payload itself, its id then from the `Idempotency-Key` header.
 */
const signalBodySchema = z.unknown().openapi('SignalBody', {
  description:
    '`{ "payload": <JSON>, "id"?: "<signal id>" }`; any other JSON body is the payload itself ' +
    '(id from the Idempotency-Key header). A repeated id is ignored.',
  example: { payload: { amount: 42 }, id: 'payment-7' },
});

const sentSignalSchema = z
  .object({ runId: z.string(), name: z.string(), signalId: z.string(), duplicate: z.boolean() })
  .openapi('SentSignal');

/**
 * `POST /runs/{id}/signals/{name}` → 202 `{ runId, name, signalId, duplicate }`: queues the
 * signal for the run's next `waitForSignal(name)`. 400 `InvalidSignalPayloadError` (with the
 * schema's issues) when the run waits on `name` with a schema the payload breaks (the run keeps
 * waiting), 404 for an unknown run, 409 `RunEndedError` when it ended.
 */
export const sendSignal = defineApiRoute(
  createRoute({
    method: 'post',
    path: '/runs/{id}/signals/{name}',
    summary: 'Send a signal to a run',
    request: {
      params: signalParamsSchema,
      body: { required: true, content: { 'application/json': { schema: signalBodySchema } } },
    },
    responses: {
      202: jsonContent(sentSignalSchema, 'Queued for the run (or ignored: an id seen before)'),
      ...errorResponses(404, 408, 409, 413, 415),
    },
  }),
  async (c) => {
    const { id, name } = c.req.valid('param');
    const body: unknown = c.req.valid('json');
    const { payload, signalId } = envelopeOf(body, c.req.header('idempotency-key'));
    const receipt = await clientFor(c).signal(
      id,
      name,
      payload,
      signalId === undefined ? {} : { id: signalId },
    );
    c.var.api.logger.info({ runId: id, signal: name, duplicate: receipt.duplicate }, 'signal sent');
    return c.json({ runId: id, name, ...receipt }, 202);
  },
);

function envelopeOf(body: unknown, header: string | undefined): { payload: unknown; signalId?: string } {
  if (typeof body === 'object' && body !== null && !Array.isArray(body) && 'payload' in body) {
    const keys = Object.keys(body);
    const envelope = body as { payload: unknown; id?: unknown };
    if (
      keys.every((key) => key === 'payload' || key === 'id') &&
      (envelope.id === undefined || typeof envelope.id === 'string')
    )
      return {
        payload: envelope.payload,
        ...(envelope.id !== undefined && { signalId: envelope.id as string }),
      };
  }
  return { payload: body, ...(header !== undefined && { signalId: header }) };
}
