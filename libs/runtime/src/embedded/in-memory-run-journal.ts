import type { JournalEntry, LoadedJournal, RunJournal } from '../context/run-services.js';

/**
 * A {@link RunJournal} in process memory (embedded mode, tests). Entries are stored as JSON
 * text, exactly as Redis would hold them, so a replay here behaves like one on a worker.
 */
export class InMemoryRunJournal implements RunJournal {
  private readonly entries = new Map<string, string>();
  private readonly pendingSteps: ReadonlySet<string> | undefined;

  /**
   * Starts with `entries` already recorded (e.g. a synthetic journal in a replay test) and, for
   * a run that suspended (on a worker), the positions of the steps it suspended on.
   */
  constructor(entries?: Iterable<[string, JournalEntry]>, pendingSteps?: Iterable<string>) {
    for (const [position, entry] of entries ?? []) this.entries.set(position, JSON.stringify(entry));
    if (pendingSteps !== undefined) this.pendingSteps = new Set(pendingSteps);
  }

  async load(): Promise<LoadedJournal> {
    const loaded = new Map<string, JournalEntry>();
    for (const [position, text] of this.entries) loaded.set(position, JSON.parse(text) as JournalEntry);
    return this.pendingSteps ? Object.assign(loaded, { pendingSteps: new Set(this.pendingSteps) }) : loaded;
  }

  async record(position: string, entry: JournalEntry): Promise<void> {
    if (!this.entries.has(position)) this.entries.set(position, JSON.stringify(entry));
  }

  /** Every recorded entry by position (a copy). */
  snapshot(): Map<string, JournalEntry> {
    return new Map([...this.entries].map(([position, text]) => [position, JSON.parse(text) as JournalEntry]));
  }
}
