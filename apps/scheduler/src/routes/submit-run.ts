import type { SubmitOptions } from '@flotilla/runtime/client';
import { readJsonBody } from '../http/read-json-body.js';
import { sendJson } from '../http/send-json.js';
import { parseSubmitRequest } from './parse-submit-request.js';
import type { RouteContext } from './route-context.js';

/** `POST /runs` → 202 `{ runId }`: queues a run (idempotent by `runId`). */
export async function submitRun(context: RouteContext): Promise<void> {
  const body = parseSubmitRequest(await readJsonBody(context.request, context.maxBodyBytes));
  const options: SubmitOptions = {};
  if (body.runId !== undefined) options.runId = body.runId;
  if (body.conversationId !== undefined) options.conversationId = body.conversationId;
  if (body.onConflict !== undefined) options.onConflict = body.onConflict;
  if (body.scope !== undefined) options.scope = body.scope;
  if (body.timeoutMs !== undefined) options.timeoutMs = body.timeoutMs;
  const run = await context.client.submit(body.agentId, body.input, options);
  context.logger.info({ runId: run.id, agentId: body.agentId }, 'run submitted');
  sendJson(context.response, 202, { runId: run.id }, { location: `/runs/${encodeURIComponent(run.id)}` });
}
