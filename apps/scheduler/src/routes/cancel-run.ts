import { sendJson } from '../http/send-json.js';
import type { RouteContext } from './route-context.js';

/**
 * `POST /runs/:id/cancel` → 202 `{ runId, status }`. A queued run is cancelled at once; a
 * running one is aborted by its worker soon after (follow `/runs/:id/events` to `run-end`). An
 * ended run stays as it is. 404 `RunNotFoundError` for an unknown id.
 */
export async function cancelRun(context: RouteContext): Promise<void> {
  const runId = context.params.id ?? '';
  await context.client.cancel(runId);
  const record = await context.client.getRun(runId);
  context.logger.info({ runId, status: record?.status }, 'run cancel requested');
  sendJson(context.response, 202, { runId, status: record?.status });
}
