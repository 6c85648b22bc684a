/**
 * The TypeScript side of `append-conversation-9`: a pure argument builder (testable without
 * Redis) and the reading of its reply, where return codes become errors through one table.
 */
import type { ConversationGateKeys, ConversationKeys } from '../keys.js';
import type { AppendChange } from './conversation-store.js';
import { ConversationConflictError, ConversationLeaseLostError } from './store-errors.js';

/** KEYS and ARGV of one `append-conversation-9` call. */
export interface ScriptCall {
  keys: string[];
  args: string[];
}

/** How long the conversation stays, the blobs this turn references, and the chunk bound. */
export interface AppendRetention {
  /** Seconds after this turn; 0 keeps the conversation. */
  seconds: number;
  /** The sha256 of every blob this turn's messages reference. */
  blobs: readonly string[];
  /**
   * A turn joins the list's last chunk while that stays within this many bytes; 0 = one message
   * per entry. @default DEFAULT_CHUNK_BYTES
   */
  chunkBytes?: number;
}

/**
 * The default chunk bound: a 1,000-message chat (~100 KB) loads as a handful of replies, and
 * the last chunk an append reads and rewrites inside Redis stays small.
 */
export const DEFAULT_CHUNK_BYTES = 16_384;

/** The largest chunk bound a setting may ask for: an append reads and rewrites the last chunk inside Redis. */
export const MAX_CONVERSATION_CHUNK_BYTES = 1_048_576;

/** Builds KEYS and ARGV; `change.messages` must already have their large media moved to blobs. */
export function appendConversationArgs(
  keys: ConversationKeys & Pick<ConversationGateKeys, 'lease'>,
  conversationId: string,
  change: AppendChange,
  now: Date,
  retention: AppendRetention = { seconds: 0, blobs: [] },
): ScriptCall {
  return {
    keys: [keys.header, keys.messages, keys.versions, keys.appends, keys.blobs, keys.lease],
    args: [
      conversationId,
      String(change.expectedVersion),
      change.appendId,
      now.toISOString(),
      change.system === undefined ? '' : JSON.stringify(change.system),
      change.model === undefined
        ? ''
        : JSON.stringify({ provider: change.model.provider, id: change.model.id }),
      change.usage === undefined ? '' : JSON.stringify(change.usage),
      String(retention.seconds),
      String(retention.blobs.length),
      change.holder?.runId ?? '',
      change.holder?.attempt ?? '',
      change.base === undefined ? '' : JSON.stringify(change.base),
      isTokenCount(change.lastPromptTokens) ? String(change.lastPromptTokens) : '',
      String(retention.chunkBytes ?? DEFAULT_CHUNK_BYTES),
      ...retention.blobs,
      ...change.messages.map((message) => JSON.stringify(message)),
    ],
  };
}

function isTokenCount(value: number | undefined): value is number {
  return value !== undefined && Number.isSafeInteger(value) && value >= 0;
}

/** Return codes of `append-conversation-9`. */
export const AppendConversationCode = { appended: 1, duplicate: 0, conflict: -1, leaseNotHeld: -2 } as const;

/** Negative return code → the error it always means. */
const appendConversationErrors: Record<
  number,
  (conversationId: string, change: AppendChange, detail: unknown) => Error
> = {
  [AppendConversationCode.conflict]: (conversationId, change, actualVersion) =>
    new ConversationConflictError(conversationId, change.expectedVersion, Number(actualVersion)),
  [AppendConversationCode.leaseNotHeld]: (conversationId, change, holder) =>
    new ConversationLeaseLostError(
      conversationId,
      change.holder
        ? `run "${change.holder.runId}" (attempt ${change.holder.attempt})`
        : 'a writer outside any run',
      typeof holder === 'string' && holder !== '' ? holder : undefined,
    ),
};

/**
 * Reads the script's reply: the header hash as a field → value record, or throws the error
 * its return code stands for.
 */
export function readAppendConversationReply(
  reply: unknown,
  conversationId: string,
  change: AppendChange,
): Record<string, string> {
  const [code, detail] = Array.isArray(reply) ? reply : [];
  const toError = appendConversationErrors[Number(code)];
  if (toError) throw toError(conversationId, change, detail);
  if (!Array.isArray(detail))
    throw new Error(`append-conversation-9 returned an unexpected reply: ${String(reply)}`);
  return pairsToRecord(detail as string[]);
}

/** `['a', '1', 'b', '2']` → `{ a: '1', b: '2' }` (HGETALL inside Lua returns a flat list). */
export function pairsToRecord(pairs: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let index = 0; index + 1 < pairs.length; index += 2) record[pairs[index]!] = pairs[index + 1]!;
  return record;
}
