/**
 * The TypeScript side of `append-conversation-10`: a pure argument builder (testable without
 * Redis) and the reading of its reply, where return codes become errors through one table.
 */

import { emptyUsage, type TokenUsage } from '@flotilla/ir';
import type { ConversationGateKeys, ConversationKeys } from '../keys.js';
import type { AppendChange, ConversationHeader, ConversationModel } from './conversation-store.js';
import {
  ConversationConflictError,
  ConversationCorruptedError,
  ConversationLeaseLostError,
} from './store-errors.js';

/** KEYS and ARGV of one `append-conversation-10` call. */
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
    keys: appendKeys(keys, retention),
    args: [
      // Stored only with a new header: a later version's call need not carry it.
      change.expectedVersion === 0 ? conversationId : '',
      String(change.expectedVersion),
      change.appendId,
      now.toISOString(),
      change.system === undefined ? '' : systemJson(change.system),
      change.model === undefined ? '' : modelJson(change.model),
      addsToUsage(change.usage) ? JSON.stringify(change.usage) : '',
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

/** The script's keys: the blobs set only for a call that touches it (adds blobs, or sets expiries). */
function appendKeys(
  keys: ConversationKeys & Pick<ConversationGateKeys, 'lease'>,
  retention: AppendRetention,
) {
  const { header, messages, versions, appends, lease } = keys;
  if (retention.blobs.length === 0 && retention.seconds === 0)
    return [header, messages, versions, appends, lease];
  return [header, messages, versions, appends, lease, keys.blobs];
}

/** No system prompt (most chats, and every first append without one) needs no stringify. */
function systemJson(system: readonly unknown[]): string {
  return system.length === 0 ? '[]' : JSON.stringify(system);
}

/**
 * The model JSON an append sends, and the model a reply holds: the last one of each is kept (a
 * worker's runs mostly use one model), so a turn neither builds nor parses it again.
 */
let lastModel: { provider: string; id: string; json: string } | undefined;

function modelJson(model: ConversationModel): string {
  const { provider, id } = model;
  if (lastModel === undefined || lastModel.provider !== provider || lastModel.id !== id)
    lastModel = { provider, id, json: JSON.stringify({ provider, id }) };
  return lastModel.json;
}

/** The model a reply's JSON stands for, an object of its own (the caller may keep or change it). */
function modelOfJson(json: string): ConversationModel {
  if (lastModel?.json === json) return { provider: lastModel.provider, id: lastModel.id };
  const model = JSON.parse(json) as ConversationModel;
  // Kept only when the JSON is exactly what modelJson writes (a copy of the two fields then is the same).
  if (typeof model?.provider === 'string' && typeof model.id === 'string') {
    const own = { provider: model.provider, id: model.id };
    if (JSON.stringify(own) === json) lastModel = { ...own, json };
  }
  return model;
}

/** What the script writes as a new conversation's totals: read without a parse. */
const ZERO_USAGE_JSON = '{"promptTokens":0,"completionTokens":0,"totalTokens":0}';

/** Whether a turn's usage changes the totals: none, or all zeros without details, does not. */
function addsToUsage(usage: TokenUsage | undefined): usage is TokenUsage {
  if (usage === undefined) return false;
  return (
    usage.promptTokens !== 0 ||
    usage.completionTokens !== 0 ||
    usage.totalTokens !== 0 ||
    usage.details !== undefined
  );
}

function isTokenCount(value: number | undefined): value is number {
  return value !== undefined && Number.isSafeInteger(value) && value >= 0;
}

/** Return codes of `append-conversation-10`. */
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
 * Reads the script's reply: the header it wrote (or found, for a duplicate), or throws the error
 * its return code stands for. The script built the values from the header it read and the
 * arguments it was given, so they are not walked by the load's schema: only the bounds a
 * caller relies on are checked (whole version and counts, JSON that parses).
 */
export function readAppendConversationReply(
  reply: unknown,
  conversationId: string,
  change: AppendChange,
): ConversationHeader {
  const [code, detail] = Array.isArray(reply) ? reply : [];
  const toError = appendConversationErrors[Number(code)];
  if (toError) throw toError(conversationId, change, detail);
  if (!Array.isArray(detail))
    throw new Error(`append-conversation-10 returned an unexpected reply: ${String(reply)}`);
  return headerOfReply(conversationId, detail as ReplyHeader);
}

/** The header values of a reply, in the script's order (see its Output); null = absent. */
type ReplyHeader = [
  version: number,
  messageCount: number,
  baseStart: number,
  system: string,
  model: string | null,
  usage: string,
  createdAt: string,
  updatedAt: string,
  base: string | null,
  lastPromptTokens: number | null,
];

function headerOfReply(conversationId: string, values: ReplyHeader): ConversationHeader {
  const [version, messageCount, baseStart, system, model, usage, createdAt, updatedAt, base, lastPrompt] =
    values;
  const count = messageCount - baseStart;
  if (!isTokenCount(version) || !isTokenCount(count))
    throw new ConversationCorruptedError(conversationId, undefined, `header counts ${version}/${count}`);
  try {
    const header: ConversationHeader = {
      schemaVersion: 1,
      conversationId,
      version,
      messageCount: count,
      system: system === '[]' ? [] : JSON.parse(system),
      usage: usage === ZERO_USAGE_JSON ? emptyUsage() : JSON.parse(usage),
      createdAt,
      updatedAt,
    };
    if (model !== null) header.model = modelOfJson(model);
    if (base !== null) header.base = JSON.parse(base);
    if (lastPrompt !== null) header.lastPromptTokens = lastPrompt;
    return header;
  } catch (error) {
    throw new ConversationCorruptedError(conversationId, undefined, `header: ${(error as Error).message}`);
  }
}
