/**
 * Names a resource's deps for the per-worker registry: local canonical JSON
 * (`json/canonical-json.ts`) and its hash. Deps may hold values that are not JSON (a function,
 * a class instance, a symbol, a bigint …); those are written as process-local reference tokens
 * (`{"$local":7}`) by identity, so the same value gives the same hash in this process and can
 * never be rebuilt elsewhere.
 */
import { createHash } from 'node:crypto';
import { localJson } from '../json/canonical-json.js';

/** The canonical form of a deps array. */
export interface HashedDeps {
  /** Hex sha256 of {@link HashedDeps.json} (first 32 characters). */
  hash: string;
  /** Canonical JSON text of the deps. */
  json: string;
  /** The deps as JSON values (what `json` parses to). */
  value: unknown[];
}

/** Hashes `deps` canonically; never throws (non-JSON values become local tokens). */
export function hashDeps(deps: readonly unknown[]): HashedDeps {
  const json = localJson(deps);
  const hash = createHash('sha256').update(json).digest('hex').slice(0, 32);
  return { hash, json, value: JSON.parse(json) as unknown[] };
}
