import { RunNotFoundError } from '@flotilla/runtime';
import { sendJson } from '../http/send-json.js';
import type { RouteContext } from './route-context.js';

/** `GET /runs/:id` → 200 with the run record, or 404 `RunNotFoundError`. */
export async function getRun(context: RouteContext): Promise<void> {
  const runId = context.params.id ?? '';
  const record = await context.client.getRun(runId);
  if (!record) throw new RunNotFoundError(runId);
  sendJson(context.response, 200, record);
}
