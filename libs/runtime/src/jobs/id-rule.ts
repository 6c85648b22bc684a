/**
 * The one rule every id follows: run ids, conversation ids, agent ids (job names), parent and
 * root run ids, resource owner ids. Ids end up in Redis key names, BullMQ job ids and URL path
 * parts, so they are short, ASCII and have no spaces, braces (hash tags), `*` (key patterns),
 * `:` (BullMQ refuses it in job ids) or control characters, and are never `.` or `..` (path
 * segments). Unicode is refused on purpose: two ids that look the same must be the same bytes,
 * and a length limit must mean the same in characters and in key bytes. Changing what an id may
 * hold is one line here.
 *
 * Stored ids (keys, job ids, job data) of a tenant's runs and conversations are qualified:
 * `<tenant>~<id>` (see `tenant-ids.ts`); `~` is not an id character, so no id of one tenant (or
 * of no tenant) can name another's.
 */
import { z } from 'zod';

/** The characters of an id, as a regex character class body. */
const ID_CHARACTERS = 'A-Za-z0-9_.-';
const ID_CHARACTERS_RULE = 'ASCII letters, digits, `_`, `.` or `-` (not `.` or `..` alone)';

/** The longest id accepted from users (agent, conversation and submitted run ids). */
export const MAX_ID_LENGTH = 200;

/** A child run's id is its root's id, `.` and 16 hex digits (`children/child-run-id.ts`). */
export const MAX_RUN_ID_LENGTH = MAX_ID_LENGTH + 17;

/** A tenant name: ASCII letters, digits, `_` or `-`, 1 to 64 of them. */
export const MAX_TENANT_LENGTH = 64;
const TENANT_BODY = `[A-Za-z0-9_-]{1,${MAX_TENANT_LENGTH}}`;
export const TENANT_PATTERN = new RegExp(`^${TENANT_BODY}$`);
export const TENANT_RULE = `expected 1 to ${MAX_TENANT_LENGTH} ASCII letters, digits, \`_\` or \`-\``;

/** Separates a tenant from an id in stored ids: `acme~run-1`. Not an id character. */
export const TENANT_SEPARATOR = '~';

/** The end of a child run's id: `.` and 16 hex digits. Submitted run ids may not end so. */
const CHILD_ID_SUFFIX = /\.[0-9a-f]{16}$/;

const idBody = (max: number) => `(?!\\.{1,2}$)[${ID_CHARACTERS}]{1,${max}}`;

/** What an id may hold. */
export const ID_PATTERN = new RegExp(`^${idBody(MAX_ID_LENGTH)}$`);
/** What a run id (a root's or a child's) may hold. */
export const RUN_ID_PATTERN = new RegExp(`^${idBody(MAX_RUN_ID_LENGTH)}$`);
/** A stored id: an id, qualified by its tenant or not. */
export const STORED_ID_PATTERN = new RegExp(
  `^(?:${TENANT_BODY}${TENANT_SEPARATOR})?${idBody(MAX_ID_LENGTH)}$`,
);
/** A stored run id (a BullMQ job id): a run id, qualified by its tenant or not. */
export const STORED_RUN_ID_PATTERN = new RegExp(
  `^(?:${TENANT_BODY}${TENANT_SEPARATOR})?${idBody(MAX_RUN_ID_LENGTH)}$`,
);

/** The rule as the errors state it. */
export const ID_RULE = `expected 1 to ${MAX_ID_LENGTH} ${ID_CHARACTERS_RULE}`;
const RUN_ID_RULE = `expected 1 to ${MAX_RUN_ID_LENGTH} ${ID_CHARACTERS_RULE}`;

/** Whether `value` is a valid id. */
export function isValidId(value: unknown): value is string {
  return typeof value === 'string' && ID_PATTERN.test(value);
}

/** Whether `value` is a valid stored run id (a job id: a child run's id is longer than a submitted one). */
export function isValidRunId(value: unknown): value is string {
  return typeof value === 'string' && STORED_RUN_ID_PATTERN.test(value);
}

/** Whether `runId` has the form of a child run's id (`<root>.<16 hex digits>`). */
export function isChildRunIdForm(runId: string): boolean {
  return CHILD_ID_SUFFIX.test(runId);
}

function idSchemaOf(pattern: RegExp, rule: string) {
  return z
    .string({ error: (issue) => `${issue.input === undefined ? 'is required' : 'is invalid'}: ${rule}` })
    .regex(pattern, { error: `is invalid: ${rule}` });
}

/** An id in a zod schema; its messages say what is expected ("is invalid: expected 1 to 200 …"). */
export const idSchema = idSchemaOf(ID_PATTERN, ID_RULE);

/** A run id a user names (a root's or a child's), e.g. in `client.getRun`. */
export const runIdSchema = idSchemaOf(RUN_ID_PATTERN, RUN_ID_RULE);

/**
 * A run id a client submits: an id that is not only digits (BullMQ's own job ids) and not in
 * the child-id namespace (`<root>.<16 hex digits>`), so no client can plant the result of a
 * child run before its parent creates it.
 */
export const submittedRunIdSchema = idSchema
  .refine((id) => !/^\d+$/.test(id), { error: 'must not be only digits (BullMQ reserves those)' })
  .refine((id) => !isChildRunIdForm(id), {
    error: 'must not end with `.` and 16 hex digits (child run ids are made so)',
  });

/** A stored conversation id in job data (qualified by its tenant or not). */
export const storedIdSchema = idSchemaOf(STORED_ID_PATTERN, ID_RULE);

/** A stored run id in job data (a parent or root run; qualified by its tenant or not). */
export const storedRunIdSchema = idSchemaOf(STORED_RUN_ID_PATTERN, RUN_ID_RULE);

/** A tenant name in a zod schema. */
export const tenantSchema = z
  .string({ error: `is invalid: ${TENANT_RULE}` })
  .regex(TENANT_PATTERN, { error: `is invalid: ${TENANT_RULE}` });

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
