import { IRValidationError } from '../errors.js';
import type { Message } from '../types/message.js';
import { describeValue } from '../validation/describe-value.js';
import { expectArray, expectRecord, expectString } from '../validation/expect-value.js';
import { inputPath } from '../validation/input-path.js';
import { isContextChefSnapshot, migrateContextChefSnapshot } from './migrate-context-chef-snapshot.js';
import { parseMessage } from './parse-message.js';
import { UnsupportedSnapshotVersionError } from './unsupported-snapshot-version-error.js';

/** The `schemaVersion` that {@link ContextChef.snapshot} writes and the newest one it reads. */
export const CHEF_SNAPSHOT_SCHEMA_VERSION = 1;

/**
 * A {@link ContextChef}'s state as plain JSON: safe to `JSON.stringify`, store (Redis, a file)
 * and restore on another process. Adapters and the registry are not part of it.
 */
export interface ChefSnapshot {
  schemaVersion: typeof CHEF_SNAPSHOT_SCHEMA_VERSION;
  system: Message[];
  history: Message[];
  /** The chef's default target when it was a name; an adapter instance is not captured. */
  defaultTarget?: string;
}

/**
 * Validates data read back as a {@link ChefSnapshot} (it does not sanitise the history: a
 * snapshot taken while tool calls are pending restores with them pending). A snapshot written
 * by the public ContextChef (no `schemaVersion`, a `systemPrompt`) is migrated first, see
 * {@link migrateContextChefSnapshot}, so a conversation saved with it can be imported.
 * @throws {UnsupportedSnapshotVersionError} when `schemaVersion` is newer than this package reads.
 * @throws {IRValidationError} naming the offending path (`history[2].content`) for anything else.
 */
export function parseChefSnapshot(value: unknown): ChefSnapshot {
  const record = expectRecord(value, 'snapshot', 'a ContextChef snapshot object');
  const snapshot = isContextChefSnapshot(record) ? migrateContextChefSnapshot(record) : record;
  const version = parseVersion(snapshot.schemaVersion);
  if (version > CHEF_SNAPSHOT_SCHEMA_VERSION) {
    throw new UnsupportedSnapshotVersionError(version, CHEF_SNAPSHOT_SCHEMA_VERSION);
  }
  const system = expectArray(snapshot.system, 'system').map((m, i) =>
    parseMessage(m, inputPath('system', i)),
  );
  const history = expectArray(snapshot.history, 'history').map((m, i) =>
    parseMessage(m, inputPath('history', i)),
  );
  const parsed: ChefSnapshot = { schemaVersion: CHEF_SNAPSHOT_SCHEMA_VERSION, system, history };
  if (snapshot.defaultTarget !== undefined) {
    parsed.defaultTarget = expectString(snapshot.defaultTarget, 'defaultTarget', 'a target name');
  }
  return parsed;
}

function parseVersion(value: unknown): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) return value;
  if (value === undefined) {
    throw new IRValidationError(
      'schemaVersion',
      'missing, and there is no `systemPrompt` either (what marks a snapshot of the public ContextChef, ' +
        'which restore migrates); pass the object that ContextChef.snapshot() returned',
    );
  }
  const shown = typeof value === 'number' ? String(value) : describeValue(value);
  throw new IRValidationError(
    'schemaVersion',
    `expected a whole number from 1 (this package writes ${CHEF_SNAPSHOT_SCHEMA_VERSION}), got ${shown}; ` +
      'pass the object that ContextChef.snapshot() returned',
  );
}

/**
 * Copies a value the way storing it as JSON and reading it back would (dropping `undefined`,
 * calling `toJSON`), so a snapshot equals what a restore from storage will see.
 * @throws {IRValidationError} at `path` when the value cannot be serialised (a cycle, a BigInt).
 */
export function cloneAsJson<T>(value: T, path: string): T {
  try {
    return JSON.parse(JSON.stringify(value)) as T;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new IRValidationError(
      path,
      `cannot be stored as JSON (${reason}); keep passthrough fields JSON-safe`,
    );
  }
}
