/**
 * Fingerprints identify what a durable call asked for, so a replay can tell "the same call"
 * from "a different call at the same position". They hash the portable canonical JSON
 * (`json/canonical-json.ts`) with SHA-256, cut to 16 hex digits: short enough to store per
 * entry, long enough that two different requests at one position never collide in practice.
 */
import { createHash } from 'node:crypto';
import { portableJson } from '../json/canonical-json.js';

/**
 * A short, stable hash of `value`'s portable canonical JSON. `undefined` hashes the text
 * `undefined`, as it always has, so recorded journals replay.
 * @param what names the value in the error.
 * @throws {NonPortableJsonError} when `value` holds something with no faithful JSON form.
 */
export function hashJson(value: unknown, what?: string): string {
  const text = value === undefined ? 'undefined' : portableJson(value, what);
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}
