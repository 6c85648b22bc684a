/**
 * A journal entry's JSON text written around its value's text, for a durable step that has its
 * value's JSON already (it wrote it to give the live run what a replay reads): the value is not
 * written a second time. The same fields in the same order as `JSON.stringify(entry)` writes.
 */
import type { JournalEntry } from './journal-entry.js';

/**
 * The text of `entry`, a success whose `outcome.value` is `JSON.parse(valueText)` (`undefined`
 * for no value: the field is left out, as JSON.stringify leaves it out).
 */
export function journalEntryText(entry: JournalEntry, valueText: string | undefined): string {
  const value = valueText === undefined ? '' : `,"value":${valueText}`;
  let text = `{"kind":${JSON.stringify(entry.kind)},"fingerprint":${JSON.stringify(entry.fingerprint)},"outcome":{"ok":true${value}},"at":${JSON.stringify(entry.at)}`;
  if (entry.costs !== undefined) text += `,"costs":${JSON.stringify(entry.costs)}`;
  if (entry.usage !== undefined) text += `,"usage":${JSON.stringify(entry.usage)}`;
  if (entry.ownUsage !== undefined) text += `,"ownUsage":${JSON.stringify(entry.ownUsage)}`;
  return `${text}}`;
}
