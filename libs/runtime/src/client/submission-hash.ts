import { createHash } from 'node:crypto';
import { portableJson } from '../json/canonical-json.js';
import type { SubmitRequest } from './submit-request.js';

/**
 * The hash a submitted run's record keeps of its whole submission: every field of the parsed
 * request but the run id (agent, input, conversation, scope, timeoutMs, and any field a later
 * version adds to `submitRequestSchema`), as canonical JSON, so key order does not matter. A
 * resubmit with the same hash is the same run; any other is a `RunIdConflictError`.
 */
export function submissionHashOf(request: SubmitRequest): string {
  const { runId: _runId, ...submission } = request;
  // Through JSON first: the job carries what JSON.stringify writes (a Date as its text).
  const json: unknown = JSON.parse(JSON.stringify(submission));
  return createHash('sha256').update(portableJson(json, 'the submission')).digest('hex');
}
