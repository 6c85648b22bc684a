/**
 * What a run list query carries, as one schema: checked by `client.listRuns` and by the
 * scheduler's `GET /runs` (which coerces its query string first). Cursors are opaque to callers:
 * the index member of the last run of a page, base64url-encoded, checked on the way back in.
 */
import { z } from 'zod';
import { describeIssue } from '../jobs/describe-issue.js';
import { idSchema, runIdSchema, STORED_RUN_ID_PATTERN, tenantSchema } from '../jobs/id-rule.js';
import { InvalidRunQueryError } from './invalid-run-query-error.js';

/** The most runs one page holds. */
export const MAX_RUN_LIST_LIMIT = 1000;
/** Runs per page when `limit` is not given. */
export const DEFAULT_RUN_LIST_LIMIT = 50;

const statusSchema = z.enum(['queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled'], {
  error: "must be one of 'queued', 'running', 'waiting', 'succeeded', 'failed', 'cancelled'",
});
const timeSchema = z.int({ error: 'must be a time in epoch milliseconds' }).min(0).max(8.64e15);

export const listRunsQuerySchema = z.strictObject(
  {
    /** Only runs in this status. */
    status: statusSchema.optional(),
    /** Only runs of this agent. */
    agentId: idSchema.optional(),
    /** Only the runs of this tree: the root run and every child run below it. */
    rootRunId: runIdSchema.optional(),
    /** Only runs on this conversation. */
    conversationId: idSchema.optional(),
    /** Only the firings of this schedule (`client.schedule`). */
    scheduleId: idSchema.optional(),
    /** Only this tenant's runs (the client without a tenant only; a tenant's view lists its own). */
    tenant: tenantSchema.optional(),
    /** Only runs created after this time (epoch ms, exclusive). */
    createdAfter: timeSchema.optional(),
    /** Only runs created before this time (epoch ms, exclusive). */
    createdBefore: timeSchema.optional(),
    /** At most this many runs (1 to 1000). @default 50 */
    limit: z
      .int({ error: `must be a whole number from 1 to ${MAX_RUN_LIST_LIMIT}` })
      .min(1, { error: `must be a whole number from 1 to ${MAX_RUN_LIST_LIMIT}` })
      .max(MAX_RUN_LIST_LIMIT, { error: `must be a whole number from 1 to ${MAX_RUN_LIST_LIMIT}` })
      .optional(),
    /** The `nextCursor` of the previous page. */
    cursor: z.string().max(400).optional(),
  },
  {
    error:
      'the query must be an object of status?, agentId?, rootRunId?, conversationId?, scheduleId?, tenant?, createdAfter?, createdBefore?, limit?, cursor?',
  },
);

/** Filters and paging of `client.listRuns`. */
export type ListRunsQuery = z.input<typeof listRunsQuerySchema>;

/** A checked query, with its cursor decoded (an index member). */
export type CheckedRunQuery = Omit<z.infer<typeof listRunsQuerySchema>, 'cursor' | 'limit'> & {
  limit: number;
  after?: string;
};

const MEMBER_PATTERN = /^\d{15}:(.+)$/;

/**
 * Checks a query and decodes its cursor.
 * @throws InvalidRunQueryError naming the first field that is wrong
 */
export function parseListRunsQuery(value: unknown): CheckedRunQuery {
  const parsed = listRunsQuerySchema.safeParse(value ?? {});
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.map(String).join('.') ?? '';
    throw new InvalidRunQueryError(field, describeIssue(parsed.error));
  }
  const { cursor, limit, ...filters } = parsed.data;
  const query: CheckedRunQuery = { ...filters, limit: limit ?? DEFAULT_RUN_LIST_LIMIT };
  if (cursor !== undefined) query.after = decodeCursor(cursor);
  return query;
}

/** The cursor of a page that ended at index member `member`. */
export function encodeCursor(member: string): string {
  return Buffer.from(member, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): string {
  const member = Buffer.from(cursor, 'base64url').toString('utf8');
  const runId = MEMBER_PATTERN.exec(member)?.[1];
  if (runId === undefined || !STORED_RUN_ID_PATTERN.test(runId))
    throw new InvalidRunQueryError('cursor', 'the cursor is not one a run list returned');
  return member;
}
