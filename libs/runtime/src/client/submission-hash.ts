import * as crypto from 'node:crypto';
import { portableJson } from '../json/canonical-json.js';
import type { SubmitRequest } from './submit-request.js';

/**
 * SHA-256 of `text` as hex. Node's one-shot `crypto.hash` (Node ≥ 20.12) when there is one: the
 * same digest without a `Hash` object per call (whose construction cost each submit more than
 * the hashing itself).
 */
const sha256Hex: (text: string) => string =
  typeof crypto.hash === 'function'
    ? (text) => crypto.hash('sha256', text, 'hex')
    : (text) => crypto.createHash('sha256').update(text).digest('hex');

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
  return sha256Hex(portableJson(json, 'the submission'));
}
