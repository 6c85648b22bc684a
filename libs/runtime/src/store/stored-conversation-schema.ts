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
  /** List index of the chunk the version's first message starts (written before chunks: = baseStart). */
  baseChunk: z.number().int().nonnegative().optional(),
  /** List length after the version (written before chunks: = messageCount). */
  chunks: z.number().int().nonnegative().optional(),
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
  baseChunk: z.number().int().nonnegative().optional(),
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

/**
 * The first `count` stored messages of one load (list entries as read, UTF-8 bytes; each entry
 * a chunk of one or more message JSON texts joined by ','; fewer when the entries hold fewer),
 * or the message index (counted from the first entry) and description of the first that is
 * not a valid message. Read on every turn of every conversation, so the common case avoids a
 * string, a `JSON.parse` and a zod parse per message: the entries are joined and parsed as one
 * JSON array and each value passes {@link isExactMessage}. Anything else (a chunk that is not
 * JSON on its own, a message zod would reject or rewrite, fewer messages than `count`) takes
 * the per-chunk path, so what a load returns and which message it blames are the same either
 * way. Messages past `count` (a later version's, in the last chunk read) are not checked.
 */
export function parseStoredMessages(
  entries: readonly Buffer[],
  count?: number,
): { ok: true; messages: Message[] } | { ok: false; index: number; problem: string } {
  const values = parseJoined(entries);
  if (values && values.length >= (count ?? 0)) {
    if (count !== undefined) values.length = count;
    if (values.every(isExactMessage)) return { ok: true, messages: values as Message[] };
  }
  const messages: Message[] = [];
  for (const entry of entries) {
    if (messages.length === count) break;
    const chunk = parseJson(`[${entry.toString()}]`);
    if (!Array.isArray(chunk) || chunk.length === 0)
      return { ok: false, index: messages.length, problem: chunk === undefined ? 'not JSON' : 'empty' };
    for (const value of chunk) {
      if (messages.length === count) return { ok: true, messages };
      const result = messageSchema.safeParse(value);
      if (!result.success)
        return { ok: false, index: messages.length, problem: describeIssues(result.error) };
      messages.push(result.data as Message);
    }
  }
  return { ok: true, messages };
}

/**
 * The entries parsed as one JSON array, or `undefined` when that fails. The store writes each
 * chunk as JSON objects joined by ',', so one not starting with `{` and ending with `}` is left
 * to the per-chunk path (that also keeps every multi-byte UTF-8 sequence inside one entry:
 * decoding them joined is decoding each). A chunk that is not JSON on its own (truncated) then
 * fails the joined parse; only corrupted chunks that complement each other exactly could pass,
 * and they must then still make valid messages, no fewer than the header counts.
 */
function parseJoined(entries: readonly Buffer[]): unknown[] | undefined {
  if (entries.length === 0) return [];
  let length = entries.length + 1;
  for (const entry of entries) {
    if (entry[0] !== 0x7b || entry[entry.length - 1] !== 0x7d) return undefined;
    length += entry.length;
  }
  const joined = Buffer.allocUnsafe(length);
  let at = 0;
  joined[at++] = 0x5b; // [
  for (const entry of entries) {
    at += entry.copy(joined, at);
    joined[at++] = 0x2c; // ,
  }
  joined[length - 1] = 0x5d; // ] over the last comma
  const values = parseJson(joined.toString());
  return Array.isArray(values) ? values : undefined;
}

const ROLES: ReadonlySet<unknown> = new Set(['system', 'user', 'assistant', 'tool']);
const SOURCES: ReadonlySet<unknown> = new Set(['base64', 'url', 'file-id']);
const BLOB_FORMATS: ReadonlySet<unknown> = new Set(['base64', 'data-url']);
const SHA256 = /^[0-9a-f]{64}$/;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/*
 * Hand-written twins of `messageSchema` and its parts. Each returns true only for a value that
 * schema accepts AND returns unchanged: zod's output puts the schema's keys first, in schema
 * order, then unknown keys (loose objects), and drops unknown keys of strict objects (`blob`).
 * So a key out of that order, or an unknown `blob` key, answers false (zod then decides and
 * rewrites) — never true for anything zod would reject. `rank` is the schema position of the
 * last key seen; `EXTRA` = an unknown key was seen (no schema key may follow).
 * `stored-conversation-schema.test.ts` checks them against zod.
 */
const EXTRA = 99;

/** `messageSchema`: role, content, name?, tool_calls?, tool_call_id?, attachments?, then unknown keys. */
export function isExactMessage(value: unknown): boolean {
  if (!isRecord(value)) return false;
  let rank = 0;
  for (const key in value) {
    const field = value[key];
    switch (key) {
      case 'role':
        if (rank !== 0 || !ROLES.has(field)) return false;
        rank = 1;
        break;
      case 'content':
        if (rank !== 1 || typeof field !== 'string') return false;
        rank = 2;
        break;
      case 'name':
        if (rank < 2 || rank >= 3 || typeof field !== 'string') return false;
        rank = 3;
        break;
      case 'tool_calls':
        if (rank < 2 || rank >= 4 || !Array.isArray(field) || !field.every(isExactToolCall)) return false;
        rank = 4;
        break;
      case 'tool_call_id':
        if (rank < 2 || rank >= 5 || typeof field !== 'string') return false;
        rank = 5;
        break;
      case 'attachments':
        if (rank < 2 || rank >= 6 || !Array.isArray(field) || !field.every(isExactAttachment)) return false;
        rank = 6;
        break;
      case '__proto__':
        return false;
      default:
        if (rank < 2) return false;
        rank = EXTRA;
    }
  }
  return rank >= 2;
}

/** `toolCallSchema`: id, type 'function', function { name, arguments, then unknown }, then unknown keys. */
function isExactToolCall(value: unknown): boolean {
  if (!isRecord(value)) return false;
  let rank = 0;
  for (const key in value) {
    const field = value[key];
    switch (key) {
      case 'id':
        if (rank !== 0 || typeof field !== 'string') return false;
        rank = 1;
        break;
      case 'type':
        if (rank !== 1 || field !== 'function') return false;
        rank = 2;
        break;
      case 'function':
        if (rank !== 2 || !isExactFunction(field)) return false;
        rank = 3;
        break;
      case '__proto__':
        return false;
      default:
        if (rank < 3) return false;
        rank = EXTRA;
    }
  }
  return rank >= 3;
}

function isExactFunction(value: unknown): boolean {
  if (!isRecord(value)) return false;
  let rank = 0;
  for (const key in value) {
    const field = value[key];
    switch (key) {
      case 'name':
        if (rank !== 0 || typeof field !== 'string') return false;
        rank = 1;
        break;
      case 'arguments':
        if (rank !== 1 || typeof field !== 'string') return false;
        rank = 2;
        break;
      case '__proto__':
        return false;
      default:
        if (rank < 2) return false;
        rank = EXTRA;
    }
  }
  return rank >= 2;
}

/** `attachmentSchema`: mediaType, data, source?, filename?, blob?, then unknown keys. */
function isExactAttachment(value: unknown): boolean {
  if (!isRecord(value)) return false;
  let rank = 0;
  for (const key in value) {
    const field = value[key];
    switch (key) {
      case 'mediaType':
        if (rank !== 0 || typeof field !== 'string') return false;
        rank = 1;
        break;
      case 'data':
        if (rank !== 1 || typeof field !== 'string') return false;
        rank = 2;
        break;
      case 'source':
        if (rank !== 2 || !SOURCES.has(field)) return false;
        rank = 3;
        break;
      case 'filename':
        if (rank < 2 || rank >= 4 || typeof field !== 'string') return false;
        rank = 4;
        break;
      case 'blob':
        if (rank < 2 || rank >= 5 || !isExactBlob(field)) return false;
        rank = 5;
        break;
      case '__proto__':
        return false;
      default:
        if (rank < 2) return false;
        rank = EXTRA;
    }
  }
  return rank >= 2;
}

/** The strict `blob` object: sha256, format, dataUrlMediaType?, no other key. */
function isExactBlob(value: unknown): boolean {
  if (!isRecord(value)) return false;
  let rank = 0;
  for (const key in value) {
    const field = value[key];
    if (key === 'sha256' && rank === 0 && typeof field === 'string' && SHA256.test(field)) rank = 1;
    else if (key === 'format' && rank === 1 && BLOB_FORMATS.has(field)) rank = 2;
    else if (key === 'dataUrlMediaType' && rank === 2 && typeof field === 'string') rank = 3;
    else return false;
  }
  return rank >= 2;
}
