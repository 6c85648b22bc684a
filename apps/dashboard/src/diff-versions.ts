import type { Conversation, Message } from './api-types.ts';

/** What changed from one version of a conversation to another. */
export interface VersionDiff {
  /** Messages both versions start with (equal, in order). */
  common: number;
  /** Messages only the older version has after the common start (a rollback or interrupt removed them). */
  removed: Message[];
  /** Messages only the newer version has. */
  added: Message[];
  /** Whether the system prompt differs. */
  systemChanged: boolean;
}

/**
 * Compares two versions. A conversation is an append-only log, so a later version is usually an
 * earlier one plus messages; the diff is then the messages added. When a later version dropped
 * or rewrote messages, those of the older one after the common start are `removed`.
 */
export function diffVersions(older: Conversation, newer: Conversation): VersionDiff {
  const same = (a: Message | undefined, b: Message | undefined) => JSON.stringify(a) === JSON.stringify(b);
  let common = 0;
  while (
    common < older.messages.length &&
    common < newer.messages.length &&
    same(older.messages[common], newer.messages[common])
  )
    common++;
  return {
    common,
    removed: older.messages.slice(common),
    added: newer.messages.slice(common),
    systemChanged: JSON.stringify(older.header.system) !== JSON.stringify(newer.header.system),
  };
}
