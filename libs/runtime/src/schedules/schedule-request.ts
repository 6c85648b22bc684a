/**
 * What a schedule carries (`client.schedule`, the scheduler's `POST /schedules`), as one schema
 * checked before anything is written. A schedule fires a normal run of `agentId` with `input`
 * on a cron pattern (`cron`, in `timezone`) or every `everyMs`, from `startAt` on.
 */
import { z } from 'zod';
import { describeIssue } from '../jobs/describe-issue.js';
import { idSchema } from '../jobs/id-rule.js';
import { checkJsonBounds, DEFAULT_JSON_LIMITS, type JsonLimits } from '../json/json-bounds.js';
import { InvalidScheduleError } from './invalid-schedule-error.js';

/**
 * The longest schedule id: a firing's run id is `<scheduleId>-<due time, 13 digits>`, which must
 * stay a valid run id.
 */
export const MAX_SCHEDULE_ID_LENGTH = 180;

/** The shortest interval of `everyMs`. */
export const MIN_SCHEDULE_EVERY_MS = 100;

/** The longest `everyMs` (a year). */
export const MAX_SCHEDULE_EVERY_MS = 365 * 24 * 3600 * 1000;

export const scheduleRequestSchema = z.strictObject(
  {
    /** The schedule's id: saving a schedule with the same id again replaces it (idempotent upsert). */
    id: idSchema.refine((id) => id.length <= MAX_SCHEDULE_ID_LENGTH, {
      error: `is too long: at most ${MAX_SCHEDULE_ID_LENGTH} characters`,
    }),
    /** The agent each firing runs. */
    agentId: idSchema,
    /** The input of every firing's run (JSON). @default null */
    input: z.unknown().default(null),
    /** A cron pattern (5 fields, or 6 with leading seconds), e.g. `0 9 * * 1-5`. Give `cron` or `everyMs`. */
    cron: z.string().min(1).max(200).optional(),
    /** Fire every this many ms (100 ms to a year). Give `cron` or `everyMs`. */
    everyMs: z
      .int({ error: 'must be a whole number of milliseconds' })
      .min(MIN_SCHEDULE_EVERY_MS, { error: `must be at least ${MIN_SCHEDULE_EVERY_MS} ms` })
      .max(MAX_SCHEDULE_EVERY_MS, { error: 'must be at most a year' })
      .optional(),
    /** No firing before this time (epoch ms). @default now */
    startAt: z.int({ error: 'must be a time in epoch milliseconds' }).min(0).max(8.64e15).optional(),
    /** The IANA time zone of `cron`, e.g. `Europe/Paris`. @default UTC */
    timezone: z.string().min(1).max(64).optional(),
    /** Every firing's run continues this conversation (runs on it go one at a time, in order). */
    conversationId: idSchema.optional(),
  },
  {
    error:
      'the schedule must be an object: { id, agentId, input?, cron? | everyMs?, startAt?, timezone?, conversationId? }',
  },
);

/** A schedule as given to `client.schedule` (`startAt` may be a `Date`). */
export type ScheduleRequest = Omit<z.input<typeof scheduleRequestSchema>, 'startAt'> & {
  startAt?: number | Date;
};

/** A checked schedule. */
export type ScheduleDefinition = z.infer<typeof scheduleRequestSchema>;

/**
 * Checks a schedule: its shape, exactly one of `cron` / `everyMs`, a known time zone (with
 * `cron` only), and the bounds of `input` (the limits a worker applies to run input).
 * @throws InvalidScheduleError naming the first field that is wrong
 */
export function parseScheduleRequest(
  value: unknown,
  limits: JsonLimits = DEFAULT_JSON_LIMITS,
): ScheduleDefinition {
  const raw = value as { startAt?: unknown } | null;
  const given = raw?.startAt instanceof Date ? { ...raw, startAt: raw.startAt.getTime() } : value;
  const parsed = scheduleRequestSchema.safeParse(given);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.map(String).join('.') ?? '';
    throw new InvalidScheduleError(field, describeIssue(parsed.error));
  }
  const schedule = parsed.data;
  if ((schedule.cron === undefined) === (schedule.everyMs === undefined))
    throw new InvalidScheduleError('cron', 'give exactly one of `cron` (a cron pattern) or `everyMs`');
  if (schedule.timezone !== undefined) {
    if (schedule.cron === undefined)
      throw new InvalidScheduleError('timezone', '`timezone` applies to a `cron` schedule');
    if (!isKnownTimeZone(schedule.timezone))
      throw new InvalidScheduleError(
        'timezone',
        `"${schedule.timezone}" is not an IANA time zone, e.g. Europe/Paris`,
      );
  }
  checkJsonBounds(schedule.input, 'the schedule input', limits, { lenient: true });
  return schedule;
}

function isKnownTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}
