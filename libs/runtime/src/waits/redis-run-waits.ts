/**
 * The {@link RunWaits} of one run execution on a worker: signals and approvals in the run's own
 * `{r:…}` keys (`keys.ts`), every write fenced by the execution's attempt token where it touches
 * the journal. Senders write the other side (`send-signal.ts`, `answer-approval.ts`).
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { ApprovalAnswer, ApprovalRequest, JournalEntry, RunWaits } from '../context/run-services.js';
import { AttemptSupersededError } from '../errors/run-errors.js';
import { runKeys } from '../keys.js';
import { ATTEMPT_SUPERSEDED } from '../store/lua/attempt-fence.lua.js';
import { takeSignalScript } from './lua/take-signal-4.lua.js';

/** How an answer stored by `client.approve` is read back (a boundary: Redis). */
export const approvalAnswerSchema = z.object({
  approved: z.boolean(),
  args: z.unknown().optional(),
  reason: z.string().max(4096).optional(),
});

/** How long the wait keys of a run live after their last write. @default 30 days */
export const DEFAULT_WAIT_KEY_SECONDS = 30 * 24 * 3600;

export class RedisRunWaits implements RunWaits {
  readonly #redis: Redis;
  readonly #runId: string;
  readonly #prefix: string;
  readonly #attempt: string;
  readonly #keySeconds: number;

  constructor(options: {
    redis: Redis;
    prefix: string;
    runId: string;
    attempt: string;
    keySeconds?: number;
  }) {
    this.#redis = options.redis;
    this.#prefix = options.prefix;
    this.#runId = options.runId;
    this.#attempt = options.attempt;
    this.#keySeconds = options.keySeconds ?? DEFAULT_WAIT_KEY_SECONDS;
  }

  async takeSignal(name: string, position: string, fingerprint: string): Promise<JournalEntry | undefined> {
    const keys = runKeys(this.#prefix, this.#runId);
    const reply = await takeSignalScript.run(
      this.#redis,
      [keys.record, keys.journal, keys.signalsOf(name), keys.signalCursors],
      [this.#attempt, position, name, fingerprint, Date.now()],
    );
    if (reply === ATTEMPT_SUPERSEDED) throw new AttemptSupersededError(this.#runId, 'a signal take');
    if (typeof reply !== 'string') return undefined;
    return JSON.parse(reply) as JournalEntry;
  }

  async expectSignal(name: string, schema: Record<string, unknown> | undefined): Promise<void> {
    const { signalSchemas } = runKeys(this.#prefix, this.#runId);
    const pipeline = this.#redis.pipeline();
    if (schema) pipeline.hset(signalSchemas, name, JSON.stringify(schema));
    else pipeline.hdel(signalSchemas, name);
    await pipeline.expire(signalSchemas, this.#keySeconds).exec();
  }

  async approvalOf(callId: string): Promise<ApprovalAnswer | undefined> {
    const text = await this.#redis.hget(runKeys(this.#prefix, this.#runId).approvals, callId);
    if (text === null) return undefined;
    const parsed = approvalAnswerSchema.safeParse(JSON.parse(text));
    // Written by our own client after validation: anything else is a rejection, never a crash.
    if (!parsed.success) return { approved: false, reason: 'the stored answer could not be read' };
    return parsed.data as ApprovalAnswer;
  }

  async requestApproval(callId: string, request: ApprovalRequest): Promise<boolean> {
    const { approvalRequests } = runKeys(this.#prefix, this.#runId);
    const [[, added]] = (await this.#redis
      .pipeline()
      .hsetnx(approvalRequests, callId, JSON.stringify(request))
      .expire(approvalRequests, this.#keySeconds)
      .exec()) as [[unknown, number]];
    return added === 1;
  }
}
