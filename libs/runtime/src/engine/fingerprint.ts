/**
 * Fingerprints identify what a durable call asked for, so a replay can tell "the same call"
 * from "a different call at the same position". They hash canonical JSON (object keys sorted)
 * with SHA-256, cut to 16 hex digits: short enough to store per entry, long enough that two
 * different requests at one position never collide in practice.
 */
import { createHash } from 'node:crypto';

/** JSON text of `value` with object keys sorted at every level; `undefined` properties dropped. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'undefined';
}

/** A short, stable hash of `value`'s canonical JSON. */
export function hashJson(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 16);
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  return sorted;
}
