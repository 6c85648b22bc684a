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
 * `inputJson`: `JSON.stringify(request.input)` when the caller has it already (the job data's).
 */
export function submissionHashOf(request: SubmitRequest, inputJson?: string): string {
  let text: string;
  try {
    text = canonicalSubmission(request, inputJson);
  } catch {
    // Only a value the canonical writer refuses gets here: the whole-object writer throws the
    // error callers always got (its JSON path counts from the submission).
    text = wholeSubmissionJson(request);
  }
  return sha256Hex(text);
}

/** The canonical submission as it was first written: the whole request through JSON, then canonical. */
export function wholeSubmissionJson(request: SubmitRequest): string {
  const { runId: _runId, ...submission } = request;
  // Through JSON first: the job carries what JSON.stringify writes (a Date as its text).
  const json: unknown = JSON.parse(JSON.stringify(submission));
  return portableJson(json, 'the submission');
}

/**
 * The text hashed: what `portableJson(JSON.parse(JSON.stringify(submission)))` writes (the
 * submission without `runId`; through JSON first, as the job carries what JSON.stringify writes,
 * a Date as its text), written field by field instead: the submission's keys are the schema's
 * (no array-index keys, so sorted they are in canonical order), and a field whose JSON text has
 * no keys to order (a string, a number, `{}`, an array of such) needs no round trip: JSON.stringify's
 * text read back and written again is the same text, and canonical JSON only orders keys. Byte for
 * byte the same text, so the hashes of records written by older clients still match (a test
 * compares the two writers).
 */
export function canonicalSubmission(request: SubmitRequest, inputJson: string | undefined): string {
  const fields: string[] = [];
  for (const key of Object.keys(request).sort()) {
    if (key === 'runId') continue;
    const value = (request as Record<string, unknown>)[key];
    const text = key === 'input' && inputJson !== undefined ? inputJson : JSON.stringify(value);
    // A value JSON leaves out (undefined, a function) is left out of the object too.
    if (text === undefined) continue;
    const canonical =
      typeof value === 'string' || typeof value === 'number' || holdsNoKeys(text)
        ? text
        : portableJson(JSON.parse(text), 'the submission');
    fields.push(`${JSON.stringify(key)}:${canonical}`);
  }
  return `{${fields.join(',')}}`;
}

/**
 * Whether JSON.stringify's `text` holds no object with keys (so it is canonical as it is): `{}`,
 * or no `{` at all (a `{` inside a string only sends the text the long way).
 */
function holdsNoKeys(text: string): boolean {
  return text === '{}' || !text.includes('{');
}
