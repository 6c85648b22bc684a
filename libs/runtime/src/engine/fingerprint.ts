/**
 * Fingerprints identify what a durable call asked for, so a replay can tell "the same call"
 * from "a different call at the same position". They hash the portable canonical JSON
 * (`json/canonical-json.ts`) with SHA-256, cut to 16 hex digits: short enough to store per
 * entry, long enough that two different requests at one position never collide in practice.
 */
import * as crypto from 'node:crypto';
import { portableJson } from '../json/canonical-json.js';

/**
 * A short, stable hash of `value`'s portable canonical JSON. `undefined` hashes the text
 * `undefined`, as it always has, so recorded journals replay.
 * @param what names the value in the error.
 * @throws {NonPortableJsonError} when `value` holds something with no faithful JSON form.
 */
export function hashJson(value: unknown, what?: string): string {
  return memoHash(recentHashes, jsonText(value, what), 16);
}

/** The text {@link hashJson} hashes. */
function jsonText(value: unknown, what: string | undefined): string {
  return value === undefined ? 'undefined' : portableJson(value, what);
}

/** The first `digits` hex digits of the SHA-256 of `text`, from `memo` when hashed lately. */
function memoHash(memo: Map<string, string>, text: string, digits: number): string {
  if (text.length > MAX_MEMO_TEXT) return sha256Hex(text).slice(0, digits);
  let hash = memo.get(text);
  if (hash === undefined) {
    if (memo.size >= MAX_MEMO_ENTRIES) memo.clear();
    hash = sha256Hex(text).slice(0, digits);
    memo.set(text, hash);
  }
  return hash;
}

/**
 * Hashes of short texts hashed lately: most parts of a model turn's fingerprint (model, tools,
 * prompt, output schema) are the same on every turn of every run of an agent. Bounded: cleared
 * when full. The parts' 8 digits have a memo of their own (no slice of the 16 per part).
 */
const recentHashes = new Map<string, string>();
const recentPartHashes = new Map<string, string>();
const MAX_MEMO_ENTRIES = 1024;
const MAX_MEMO_TEXT = 1024;

/**
 * `crypto.hash` (Node ≥ 20.12) hashes a short string in one call, ~3× cheaper than a `Hash`
 * object; a model turn hashes six parts, so it shows in a worker's profile. Same digest.
 */
const oneShotHash = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash;
const sha256Hex: (text: string) => string = oneShotHash
  ? (text) => oneShotHash('sha256', text, 'hex')
  : (text) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * The format of a fingerprint: its text before the first `:` (`model-turn/v2`, `tool`, `agent`),
 * or all of it when it has none (`progress`, `sleep`). A replay compares a recorded fingerprint
 * with the current step's fingerprint of the same format, so widening what a step's fingerprint
 * covers (a new format, e.g. `model-turn/v2`) never breaks journals recorded in the old one.
 */
export function fingerprintFormat(fingerprint: string): string {
  const colon = fingerprint.indexOf(':');
  return colon === -1 ? fingerprint : fingerprint.slice(0, colon);
}

/** Hex digits of one part of a {@link partedFingerprint}. */
const PART_HASH_LENGTH = 8;

/**
 * A fingerprint of named parts, `<format>:<name>=<hash>,<name>=<hash>…` (8 hex digits per part),
 * so a mismatch can say which part changed ({@link changedParts}).
 * @throws {NonPortableJsonError} when a part holds something with no faithful JSON form
 */
export function partedFingerprint(format: string, parts: Record<string, unknown>): string {
  // Written in one pass (a model turn writes one per turn): no entries, no mapped array, no join.
  let fingerprint = `${format}:`;
  let separator = '';
  for (const name in parts) {
    fingerprint += `${separator}${name}=${partHash(format, name, parts[name])}`;
    separator = ',';
  }
  return fingerprint;
}

/**
 * The hash of one part of a {@link partedFingerprint}: the first digits of {@link hashJson}'s.
 * Its error's name for the value is built once per format and part (not per turn).
 */
function partHash(format: string, name: string, value: unknown): string {
  return memoHash(recentPartHashes, jsonText(value, partWhat(format, name)), PART_HASH_LENGTH);
}

/** `the <part> of a <format> fingerprint`, by format and part (both names in the code: few). */
const partWhats = new Map<string, Map<string, string>>();

function partWhat(format: string, name: string): string {
  let byName = partWhats.get(format);
  if (byName === undefined) {
    byName = new Map();
    partWhats.set(format, byName);
  }
  let what = byName.get(name);
  if (what === undefined) {
    what = `the ${name} of a ${format} fingerprint`;
    byName.set(name, what);
  }
  return what;
}

/**
 * The names of the parts that differ between two {@link partedFingerprint}s of one format, in
 * order; empty when they are of other formats or not parted.
 */
export function changedParts(recorded: string, current: string): string[] {
  if (fingerprintFormat(recorded) !== fingerprintFormat(current)) return [];
  const before = partsOf(recorded);
  const after = partsOf(current);
  if (!before || !after) return [];
  const names = [...new Set([...before.keys(), ...after.keys()])];
  return names.filter((name) => before.get(name) !== after.get(name));
}

const PART = /^([a-z][a-z0-9-]*)=([0-9a-f]+)$/;

function partsOf(fingerprint: string): Map<string, string> | undefined {
  const colon = fingerprint.indexOf(':');
  if (colon === -1) return undefined;
  const parts = new Map<string, string>();
  for (const text of fingerprint.slice(colon + 1).split(',')) {
    const part = PART.exec(text);
    if (!part) return undefined;
    parts.set(part[1] ?? '', part[2] ?? '');
  }
  return parts;
}

/**
 * Which of a step's fingerprints a recorded one is compared with: the one of the recorded
 * fingerprint's format, else the current one (`candidates[0]`), which then mismatches.
 */
export function fingerprintInFormatOf(recorded: string, candidates: readonly [string, ...string[]]): string {
  const format = fingerprintFormat(recorded);
  return candidates.find((candidate) => fingerprintFormat(candidate) === format) ?? candidates[0];
}
