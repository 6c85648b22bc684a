import type { JournalEntry, RunJournal } from '../context/run-services.js';

/**
 * A {@link RunJournal} in process memory (embedded mode, tests). Entries are stored as JSON
 * text, exactly as Redis would hold them, so a replay here behaves like one on a worker.
 */
export class InMemoryRunJournal implements RunJournal {
  private readonly entries = new Map<string, string>();

  /** Starts with `entries` already recorded (e.g. a synthetic journal in a replay test). */
  constructor(entries?: Iterable<[string, JournalEntry]>) {
    for (const [position, entry] of entries ?? []) this.entries.set(position, JSON.stringify(entry));
  }

  async load(): Promise<Map<string, JournalEntry>> {
    const loaded = new Map<string, JournalEntry>();
    for (const [position, text] of this.entries) loaded.set(position, JSON.parse(text) as JournalEntry);
    return loaded;
  }

  async record(position: string, entry: JournalEntry): Promise<void> {
    if (!this.entries.has(position)) this.entries.set(position, JSON.stringify(entry));
  }

  /** Every recorded entry by position (a copy). */
  snapshot(): Map<string, JournalEntry> {
    return new Map([...this.entries].map(([position, text]) => [position, JSON.parse(text) as JournalEntry]));
  }
}
