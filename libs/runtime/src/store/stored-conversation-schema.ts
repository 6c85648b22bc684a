/**
 * Validation of what the Redis conversation store reads back (loading is a boundary,
 * ARCHITECTURE.md §3). Messages are checked for the IR shape the runtime relies on; unknown
 * fields (provider passthrough) are kept.
 */
import type { Message } from '@flotilla/ir';
import { z } from 'zod';

const usageSchema = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
  details: z.record(z.string(), z.number()).optional(),
});

const modelSchema = z.object({ provider: z.string(), id: z.string() });

const toolCallSchema = z.looseObject({
  id: z.string(),
  type: z.literal('function'),
  function: z.looseObject({ name: z.string(), arguments: z.string() }),
});

const attachmentSchema = z.looseObject({
  mediaType: z.string(),
  data: z.string(),
  source: z.enum(['base64', 'url', 'file-id']).optional(),
  filename: z.string().optional(),
  blob: z
    .object({
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      format: z.enum(['base64', 'data-url']),
      dataUrlMediaType: z.string().optional(),
    })
    .optional(),
});

const messageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
  name: z.string().optional(),
  tool_calls: z.array(toolCallSchema).optional(),
  tool_call_id: z.string().optional(),
  attachments: z.array(attachmentSchema).optional(),
});

const baseSchema = z.object({
  version: z.number().int().positive(),
  compactedFrom: z.number().int().nonnegative(),
  createdAt: z.string(),
  reason: z.literal('compaction'),
  runId: z.string().optional(),
  turnsSummarised: z.number().int().nonnegative(),
  messagesSummarised: z.number().int().nonnegative(),
  summarizer: modelSchema.optional(),
  tokensBefore: z.number().nonnegative(),
  tokensAfter: z.number().nonnegative(),
});

/** One entry of the versions list: the header fields that change per version. */
export const versionEntrySchema = z.object({
  messageCount: z.number().int().nonnegative(),
  systemAt: z.number().int().nonnegative(),
  /** Index of the version's first message in the list (written before bases existed: 0). */
  baseStart: z.number().int().nonnegative().default(0),
  /** The version of the base this one builds on; 0 = none. */
  baseAt: z.number().int().nonnegative().default(0),
  updatedAt: z.string(),
  usage: usageSchema,
  model: modelSchema.optional(),
  lastPromptTokens: z.number().int().nonnegative().optional(),
  system: z.array(messageSchema).optional(),
  /** Set on the entry of a base version only. */
  base: baseSchema.optional(),
});
export type VersionEntry = z.infer<typeof versionEntrySchema>;

/** The header hash, fields parsed from their JSON text. */
export const headerFieldsSchema = z.object({
  schemaVersion: z.literal(1),
  conversationId: z.string(),
  version: z.number().int().nonnegative(),
  messageCount: z.number().int().nonnegative(),
  systemAt: z.number().int().nonnegative(),
  system: z.array(messageSchema),
  model: modelSchema.optional(),
  baseStart: z.number().int().nonnegative(),
  baseAt: z.number().int().nonnegative(),
  base: baseSchema.optional(),
  lastPromptTokens: z.number().int().nonnegative().optional(),
  usage: usageSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type HeaderFields = z.infer<typeof headerFieldsSchema>;

/** Parses JSON text; `undefined` for text that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A stored message, or a one-line description of what is wrong with it. */
export function parseStoredMessage(
  text: string,
): { ok: true; message: Message } | { ok: false; problem: string } {
  const value = parseJson(text);
  if (value === undefined) return { ok: false, problem: 'not JSON' };
  const result = messageSchema.safeParse(value);
  if (!result.success) return { ok: false, problem: describeIssues(result.error) };
  return { ok: true, message: result.data as Message };
}

/** `path: message` of the first issue, for error messages. */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid';
  const path = issue.path.length > 0 ? issue.path.join('.') : '(root)';
  return `${path}: ${issue.message}`;
}
