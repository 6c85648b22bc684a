import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { JournalEntry, RunJournal } from '../context/run-services.js';
import { JournalCorruptedError } from '../errors/run-errors.js';
import { runKeys } from '../keys.js';

const serializedErrorSchema: z.ZodType<unknown> = z.lazy(() =>
  z.object({
    name: z.string(),
    message: z.string(),
    stack: z.string().optional(),
    data: z.record(z.string(), z.unknown()).optional(),
    cause: serializedErrorSchema.optional(),
  }),
);

const journalEntrySchema = z.object({
  kind: z.enum(['model-turn', 'tool', 'child', 'memo', 'reborn', 'conversation-load', 'conversation-append']),
  fingerprint: z.string(),
  outcome: z.union([
    z.object({ ok: z.literal(true), value: z.unknown() }),
    z.object({ ok: z.literal(false), error: serializedErrorSchema }),
  ]),
  at: z.number(),
});

/**
 * The {@link RunJournal} of one run in Redis: one hash (`runKeys(…).journal`), field =
 * position, value = entry JSON. `record` is HSETNX, so when a crashed worker's replacement
 * and a late original race on a position, the first write wins and both read the same outcome
 * on the next replay. Entries are validated on load.
 */
export class RedisRunJournal implements RunJournal {
  readonly #redis: Redis;
  readonly #runId: string;
  readonly #key: string;

  constructor(options: { redis: Redis; prefix: string; runId: string }) {
    this.#redis = options.redis;
    this.#runId = options.runId;
    this.#key = runKeys(options.prefix, options.runId).journal;
  }

  /** @throws JournalCorruptedError when an entry does not parse */
  async load(): Promise<Map<string, JournalEntry>> {
    const fields = await this.#redis.hgetall(this.#key);
    const journal = new Map<string, JournalEntry>();
    for (const [position, text] of Object.entries(fields)) journal.set(position, this.#parse(position, text));
    return journal;
  }

  async record(position: string, entry: JournalEntry): Promise<void> {
    await this.#redis.hsetnx(this.#key, position, JSON.stringify(entry));
  }

  #parse(position: string, text: string): JournalEntry {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new JournalCorruptedError(this.#runId, position, 'not JSON');
    }
    const parsed = journalEntrySchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new JournalCorruptedError(this.#runId, position, `${issue?.path.join('.')}: ${issue?.message}`);
    }
    return parsed.data as JournalEntry;
  }
}
