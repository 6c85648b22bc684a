/**
 * The one rule every id follows: run ids, conversation ids, agent ids (job names), parent and
 * root run ids, resource owner ids. Ids end up in Redis key names and BullMQ job ids, so they
 * are short and have no spaces or braces (hash tags). Changing what an id may hold is one line
 * here.
 */
import { z } from 'zod';

/** The characters of an id, as a regex character class body. */
const ID_CHARACTERS = 'A-Za-z0-9_.:-';
const ID_CHARACTERS_RULE = 'letters, digits, `_`, `.`, `:` or `-`';

/** The longest id accepted from users (agent, conversation and submitted run ids). */
export const MAX_ID_LENGTH = 200;

/** A child run's id is its root's id, `.` and 16 hex digits (`children/child-run-id.ts`). */
export const MAX_RUN_ID_LENGTH = MAX_ID_LENGTH + 17;

/** What an id may hold. */
export const ID_PATTERN = new RegExp(`^[${ID_CHARACTERS}]{1,${MAX_ID_LENGTH}}$`);
/** What a run id (a job id, a root's or a child's) may hold. */
export const RUN_ID_PATTERN = new RegExp(`^[${ID_CHARACTERS}]{1,${MAX_RUN_ID_LENGTH}}$`);

/** The rule as the errors state it. */
export const ID_RULE = `expected 1 to ${MAX_ID_LENGTH} ${ID_CHARACTERS_RULE}`;
const RUN_ID_RULE = `expected 1 to ${MAX_RUN_ID_LENGTH} ${ID_CHARACTERS_RULE}`;

/** Whether `value` is a valid id. */
export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

/** Whether `value` is a valid run id (a child run's id is longer than a submitted one). */
export function isValidRunId(value: unknown): value is string {
  return typeof value === 'string' && RUN_ID_PATTERN.test(value);
}

function idSchemaOf(pattern: RegExp, rule: string) {
  return z
    .string({ error: (issue) => `${issue.input === undefined ? 'is required' : 'is invalid'}: ${rule}` })
    .regex(pattern, { error: `is invalid: ${rule}` });
}

/** An id in a zod schema; its messages say what is expected ("is invalid: expected 1 to 200 …"). */
export const idSchema = idSchemaOf(ID_PATTERN, ID_RULE);

/** A run id in job data (a parent or root run: a child's id is longer than a submitted one). */
export const runIdSchema = idSchemaOf(RUN_ID_PATTERN, RUN_ID_RULE);

/**
 * Text that is not an id but travels in job data (callPaths, resource keys, hashes, model
 * ids): bounded so a producer cannot make huge keys or records.
 */
export function boundedText(maxLength: number) {
  const rule = `must be a string of 1 to ${maxLength} characters`;
  return z.string({ error: rule }).min(1, { error: rule }).max(maxLength, { error: rule });
}

/** The longest callPath accepted (`root/agent:planner:0/g0/agent:writer:2/…`). */
export const MAX_CALL_PATH_LENGTH = 2000;
