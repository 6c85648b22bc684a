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
  // Kind, fingerprint and time are written without a `JSON.stringify` each when they need no
  // escaping (every entry of every step: three calls per step were a tenth of a run's).
  let text = `{"kind":${stringText(entry.kind)},"fingerprint":${stringText(entry.fingerprint)},"outcome":{"ok":true${value}},"at":${numberText(entry.at)}`;
  if (entry.costs !== undefined) text += `,"costs":${JSON.stringify(entry.costs)}`;
  if (entry.usage !== undefined) text += `,"usage":${JSON.stringify(entry.usage)}`;
  if (entry.ownUsage !== undefined) text += `,"ownUsage":${JSON.stringify(entry.ownUsage)}`;
  return `${text}}`;
}

/** Printable ASCII but `"` and `\`: what `JSON.stringify` writes as it stands. */
const UNESCAPED = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** `JSON.stringify(text)`: quoted as it stands when nothing in it is escaped. */
function stringText(text: string): string {
  return typeof text === 'string' && UNESCAPED.test(text) ? `"${text}"` : JSON.stringify(text);
}

/** `JSON.stringify(value)` of a finite number is its string (-0 included: both write `0`). */
function numberText(value: number): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${value}` : JSON.stringify(value);
}
