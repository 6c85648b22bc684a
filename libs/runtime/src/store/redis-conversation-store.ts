import { emptyUsage, type Message } from '@flotilla/ir';
import type { Redis } from 'ioredis';
import { type ConversationKeys, conversationGateKeys, conversationKeys, DEFAULT_PREFIX } from '../keys.js';
import {
  appendConversationArgs,
  DEFAULT_CHUNK_BYTES,
  readAppendConversationReply,
} from './append-conversation-args.js';
import { BLOB_GRACE_SECONDS, BlobStore } from './blob-store.js';
import type {
  AppendChange,
  ConversationHeader,
  ConversationStore,
  LoadConversationOptions,
  StoredConversation,
} from './conversation-store.js';
import { appendConversationScript } from './lua/append-conversation-10.lua.js';
import {
  DEFAULT_BLOB_THRESHOLD_BYTES,
  hasBlobMedia,
  offloadMedia,
  referencedBlobs,
  restoreMedia,
} from './media-blobs.js';
import { ConversationCorruptedError, ConversationVersionNotFoundError } from './store-errors.js';
import {
  describeIssues,
  type HeaderFields,
  headerFieldsSchema,
  parseJson,
  parseStoredMessages,
  versionEntrySchema,
} from './stored-conversation-schema.js';

/** Options of {@link RedisConversationStore}. */
export interface RedisConversationStoreOptions {
  /** A connection the store uses and does not close. */
  redis: Redis;
  /** Key prefix. @default DEFAULT_PREFIX (`flotilla`) */
  prefix?: string;
  /** Inline attachment `data` longer than this moves to a blob. @default 65536 */
  blobThresholdBytes?: number;
  /** Clock for timestamps. @default () => new Date() */
  now?: () => Date;
  /**
   * How long a conversation stays after its latest turn, in seconds: every turn refreshes the
   * expiry of all its keys, and of the blobs it references (those by a little more). 0 keeps
   * it. @default 0 (`FLOTILLA_CONVERSATION_RETENTION_SECONDS` on a worker)
   */
  retentionSeconds?: number;
  /** How much longer than the conversation its blobs stay. @default BLOB_GRACE_SECONDS (60) */
  blobGraceSeconds?: number;
  /**
   * Messages are stored in chunks (list entries) of up to this many bytes, so a load is a few
   * large replies; a turn larger than this is one chunk of its own. 0 stores one message per
   * entry, which loaders of earlier versions (before `append-conversation-7`) can read: for a
   * rolling deploy while such processes still load conversations. @default 16384
   */
  chunkBytes?: number;
}

/**
 * The {@link ConversationStore} in Redis (ARCHITECTURE.md §3). Per conversation, under one
 * hash tag: a header hash (latest version), an append-only message list (chunks of messages
 * joined by ','), a versions list (one small entry per version: message count, usage totals,
 * model, timestamp, and the system prompt when it changed) and an applied-append-id hash. An
 * append is one Lua script (`append-conversation-10`, fenced by the lease of the conversation
 * gate); a load validates everything it reads.
 */
export class RedisConversationStore implements ConversationStore {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #blobs: BlobStore;
  readonly #blobThresholdBytes: number;
  readonly #now: () => Date;
  readonly #retentionSeconds: number;
  readonly #chunkBytes: number;
  /** Header key → the list index (chunk) where its latest version starts, for compacted conversations. */
  readonly #baseStarts = new Map<string, number>();

  constructor(options: RedisConversationStoreOptions) {
    this.#redis = options.redis;
    this.#prefix = options.prefix ?? DEFAULT_PREFIX;
    this.#retentionSeconds = options.retentionSeconds ?? 0;
    this.#chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
    const grace = options.blobGraceSeconds ?? BLOB_GRACE_SECONDS;
    const blobSeconds = this.#retentionSeconds === 0 ? 0 : this.#retentionSeconds + grace;
    this.#blobs = new BlobStore(options.redis, this.#prefix, blobSeconds);
    this.#blobThresholdBytes = options.blobThresholdBytes ?? DEFAULT_BLOB_THRESHOLD_BYTES;
    this.#now = options.now ?? (() => new Date());
  }

  async load(
    conversationId: string,
    options: LoadConversationOptions = {},
  ): Promise<StoredConversation | undefined> {
    const keys = conversationKeys(this.#prefix, conversationId);
    if (options.version === undefined) return this.#loadLatest(keys, conversationId);
    const fields = await this.#redis.hgetall(keys.header);
    if (Object.keys(fields).length === 0) return undefined;
    const latest = parseHeader(conversationId, fields);
    const version = options.version;
    if (!Number.isInteger(version) || version < 0 || version > latest.version) {
      throw new ConversationVersionNotFoundError(conversationId, version, latest.version);
    }
    const header =
      version === latest.version
        ? { header: toHeader(latest), ...latestStart(latest) }
        : await this.#headerAt(keys, toHeader(latest), version);
    // The last chunk may hold messages of later versions too: only the version's are kept.
    const entries =
      header.header.messageCount === 0
        ? []
        : await this.#redis.lrangeBuffer(keys.messages, header.baseChunk, header.chunkEnd);
    const messages = await this.#parseMessages(conversationId, header, entries);
    return { header: header.header, messages };
  }

  /**
   * The latest version in one round trip: the header and the message list from where its
   * messages are expected to start, sent together on one connection (Redis runs them in that
   * order). One version either way: messages are only ever added (a base is pushed too; an
   * append extends the last chunk or pushes one), so the messages the header covers are the
   * same however many appends run before the LRANGE; only the header's count is used. The list
   * start is 0 until a conversation is compacted; after that the last start seen is
   * remembered, and a conversation not seen yet reads its whole list once.
   */
  async #loadLatest(
    keys: ConversationKeys,
    conversationId: string,
    first?: LatestRead,
  ): Promise<StoredConversation | undefined> {
    let from = first?.from ?? this.#baseStarts.get(keys.header) ?? 0;
    let read: [Record<string, string>, Buffer[]] | undefined = first && [first.fields, first.list];
    for (;;) {
      const [fields, list] = read ?? (await this.#readLatest(keys, from));
      read = undefined;
      if (Object.keys(fields).length === 0) return undefined;
      const latest = parseHeader(conversationId, fields);
      const at = { header: toHeader(latest), ...latestStart(latest) };
      this.#rememberBaseStart(keys.header, at.baseChunk);
      // Only a conversation deleted (expired) and written anew starts before a start seen earlier.
      if (at.baseChunk < from) {
        from = at.baseChunk;
        continue;
      }
      const header = at.header;
      const messages = await this.#parseMessages(conversationId, at, list.slice(at.baseChunk - from));
      return { header, messages };
    }
  }

  /**
   * The list index a read of the latest version of `conversationId` starts at (for a read made
   * elsewhere in the same way: `enter-writer-5`, then {@link loadLatestRead}).
   */
  latestReadFrom(conversationId: string): number {
    return this.#baseStarts.get(conversationKeys(this.#prefix, conversationId).header) ?? 0;
  }

  /**
   * The latest version from a read made elsewhere (`read`: the header's fields and the message
   * list from `read.from`), validated as a load's own read; read again when the version starts
   * before `read.from` (see {@link load}).
   */
  loadLatestRead(conversationId: string, read: LatestRead): Promise<StoredConversation | undefined> {
    // Nothing stored (what a run leased on an empty line reads): no keys built, no async layer.
    if (isEmptyRecord(read.fields)) return NOTHING_STORED;
    return this.#loadLatest(conversationKeys(this.#prefix, conversationId), conversationId, read);
  }

  /** The version `read` holds (0 when nothing is stored). @throws ConversationCorruptedError */
  versionOfRead(conversationId: string, read: LatestRead): number {
    if (Object.keys(read.fields).length === 0) return 0;
    return parseHeader(conversationId, read.fields).version;
  }

  async #readLatest(keys: ConversationKeys, from: number): Promise<[Record<string, string>, Buffer[]]> {
    // Not a MULTI (4 commands and a transaction reply for the same answer), not a pipeline
    // object: two commands written back to back.
    return Promise.all([this.#redis.hgetall(keys.header), this.#redis.lrangeBuffer(keys.messages, from, -1)]);
  }

  #rememberBaseStart(headerKey: string, baseStart: number): void {
    if (baseStart === 0) {
      this.#baseStarts.delete(headerKey);
      return;
    }
    if (!this.#baseStarts.has(headerKey) && this.#baseStarts.size >= REMEMBERED_BASE_STARTS) {
      const oldest = this.#baseStarts.keys().next();
      if (!oldest.done) this.#baseStarts.delete(oldest.value);
    }
    this.#baseStarts.set(headerKey, baseStart);
  }

  /**
   * Not an async function without a retention (the usual case): the script's promise and one
   * `.then` (every promise pays the async-context hooks). Throws only as a rejection.
   */
  append(conversationId: string, change: AppendChange): Promise<ConversationHeader> {
    try {
      if (this.#retentionSeconds > 0) return this.#appendRetained(conversationId, change);
      const offloaded = offloadMedia(change.messages, this.#blobs, this.#blobThresholdBytes);
      if (offloaded instanceof Promise)
        return offloaded.then((messages) => this.#appendMessages(conversationId, change, messages));
      return this.#appendMessages(conversationId, change, offloaded);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Blobs are written (and, with a retention, the earlier ones' expiry pushed past this turn's)
   * before the script: a crash in between leaves at most an unreferenced blob or one kept
   * longer, never a reference to missing bytes.
   */
  async #appendRetained(conversationId: string, change: AppendChange): Promise<ConversationHeader> {
    const { blobs } = conversationKeys(this.#prefix, conversationId);
    await this.#blobs.refresh(await this.#redis.smembers(blobs));
    const offloaded = offloadMedia(change.messages, this.#blobs, this.#blobThresholdBytes);
    return this.#appendMessages(
      conversationId,
      change,
      offloaded instanceof Promise ? await offloaded : offloaded,
    );
  }

  /** The script call, `messages` being the change's with their large media in blobs. */
  #appendMessages(
    conversationId: string,
    change: AppendChange,
    messages: Message[],
  ): Promise<ConversationHeader> {
    const keys = conversationKeys(this.#prefix, conversationId);
    const { lease } = conversationGateKeys(this.#prefix, conversationId);
    const call = appendConversationArgs(
      { ...keys, lease },
      conversationId,
      // The same change unless media moved to blobs (offloadMedia returns the same array then).
      messages === change.messages ? change : { ...change, messages },
      this.#now(),
      {
        seconds: this.#retentionSeconds,
        blobs: referencedBlobs(messages),
        chunkBytes: this.#chunkBytes,
      },
    );
    return appendConversationScript
      .run(this.#redis, call.keys, call.args)
      .then((reply) => readAppendConversationReply(reply, conversationId, change));
  }

  /**
   * The header as it was at `version` (older than the latest), rebuilt from the versions list,
   * with the message and list indexes where the version starts and the list index it ends at.
   */
  async #headerAt(keys: ConversationKeys, latest: ConversationHeader, version: number): Promise<HeaderAt> {
    const base = {
      schemaVersion: 1 as const,
      conversationId: latest.conversationId,
      createdAt: latest.createdAt,
    };
    if (version === 0) {
      const header = { ...base, version: 0, messageCount: 0, system: [], usage: emptyUsage() };
      return { header: { ...header, updatedAt: latest.createdAt }, baseStart: 0, baseChunk: 0, chunkEnd: -1 };
    }
    const entry = await this.#versionEntry(keys, latest.conversationId, version);
    let system: Message[] = [];
    if (entry.systemAt === version) system = (entry.system ?? []) as Message[];
    else if (entry.systemAt > 0) {
      system = ((await this.#versionEntry(keys, latest.conversationId, entry.systemAt)).system ??
        []) as Message[];
    }
    const header: ConversationHeader = {
      ...base,
      version,
      messageCount: entry.messageCount - entry.baseStart,
      system,
      usage: entry.usage,
      updatedAt: entry.updatedAt,
    };
    if (entry.model) header.model = entry.model;
    if (entry.lastPromptTokens !== undefined) header.lastPromptTokens = entry.lastPromptTokens;
    if (entry.baseAt === version && entry.base) header.base = entry.base;
    else if (entry.baseAt > 0) {
      const baseEntry = await this.#versionEntry(keys, latest.conversationId, entry.baseAt);
      if (baseEntry.base) header.base = baseEntry.base;
    }
    // Entries written before chunks hold one message each: list indexes are message indexes.
    const chunks = entry.chunks ?? entry.messageCount;
    return {
      header,
      baseStart: entry.baseStart,
      baseChunk: entry.baseChunk ?? entry.baseStart,
      chunkEnd: chunks - 1,
    };
  }

  async #versionEntry(keys: ConversationKeys, conversationId: string, version: number) {
    const text = await this.#redis.lindex(keys.versions, version - 1);
    const parsed = versionEntrySchema.safeParse(text === null ? undefined : parseJson(text));
    if (!parsed.success) {
      const problem = text === null ? 'missing' : describeIssues(parsed.error);
      throw new ConversationCorruptedError(
        conversationId,
        undefined,
        `version entry ${version} is ${problem}`,
      );
    }
    return parsed.data;
  }

  /**
   * The messages of `at` from its list entries (the chunks from `at.baseChunk` on), validated,
   * media restored; messages past the version's count (later appends) are left out.
   */
  async #parseMessages(conversationId: string, at: HeaderAt, entries: Buffer[]): Promise<Message[]> {
    const count = at.header.messageCount;
    if (count === 0) return [];
    // Parsed in one synchronous pass; only messages whose media lie in blobs wait for Redis
    // (a promise per message made loading 1,000 plain messages ~2× slower).
    const parsed = parseStoredMessages(entries, count);
    if (!parsed.ok)
      throw new ConversationCorruptedError(conversationId, at.baseStart + parsed.index, parsed.problem);
    const { messages } = parsed;
    if (messages.length < count) {
      throw new ConversationCorruptedError(
        conversationId,
        at.baseStart + messages.length,
        `missing (header counts ${count} messages)`,
      );
    }
    const restoring: Promise<void>[] = [];
    for (let index = 0; index < messages.length; index++) {
      if (hasBlobMedia(messages[index] as Message))
        restoring.push(this.#restore(messages, index, at.baseStart + index, conversationId));
    }
    await Promise.all(restoring);
    return messages;
  }

  /** Puts the media of `messages[index]` (stored at list `position`) back from their blobs. */
  async #restore(
    messages: Message[],
    index: number,
    position: number,
    conversationId: string,
  ): Promise<void> {
    try {
      messages[index] = await restoreMedia(messages[index] as Message, this.#blobs);
    } catch (error) {
      throw new ConversationCorruptedError(conversationId, position, (error as Error).message);
    }
  }
}

/** A read of a conversation's latest version: its header hash and its message list from `from`. */
export interface LatestRead {
  from: number;
  fields: Record<string, string>;
  list: Buffer[];
}

/** A load that found nothing stored: one settled promise, shared. */
const NOTHING_STORED: Promise<undefined> = Promise.resolve(undefined);

/** Whether a hash read as a record has no field (without `Object.keys`' array). */
function isEmptyRecord(fields: Record<string, string>): boolean {
  for (const _ in fields) return false;
  return true;
}

/** How many compacted conversations a store remembers the list start of (the oldest is forgotten). */
const REMEMBERED_BASE_STARTS = 10_000;

/** A header, where its version's messages start (message and list index), and the list index its range ends at. */
interface HeaderAt {
  header: ConversationHeader;
  baseStart: number;
  baseChunk: number;
  /** -1 = the end of the list. */
  chunkEnd: number;
}

/** Where the latest version starts; conversations written before chunks have one message per entry. */
function latestStart(fields: HeaderFields): Omit<HeaderAt, 'header'> {
  return { baseStart: fields.baseStart, baseChunk: fields.baseChunk ?? fields.baseStart, chunkEnd: -1 };
}

function parseHeader(conversationId: string, fields: Record<string, string>): HeaderFields {
  const candidate = {
    schemaVersion: Number(fields.schemaVersion),
    conversationId: fields.conversationId,
    version: Number(fields.version),
    messageCount: Number(fields.messageCount),
    systemAt: Number(fields.systemAt),
    system: parseJson(fields.system ?? ''),
    model: fields.model === undefined ? undefined : parseJson(fields.model),
    // Conversations written before bases existed have neither field: no base.
    baseStart: Number(fields.baseStart ?? 0),
    baseAt: Number(fields.baseAt ?? 0),
    // Written by append-conversation-7 (chunks); before it, list and message indexes were one.
    baseChunk: fields.baseChunk === undefined ? undefined : Number(fields.baseChunk),
    base: fields.base === undefined ? undefined : parseJson(fields.base),
    lastPromptTokens: fields.lastPromptTokens === undefined ? undefined : Number(fields.lastPromptTokens),
    usage: parseJson(fields.usage ?? ''),
    createdAt: fields.createdAt,
    updatedAt: fields.updatedAt,
  };
  const parsed = headerFieldsSchema.safeParse(candidate);
  if (!parsed.success)
    throw new ConversationCorruptedError(conversationId, undefined, describeIssues(parsed.error));
  return parsed.data;
}

function toHeader(fields: HeaderFields): ConversationHeader {
  const header: ConversationHeader = {
    schemaVersion: 1,
    conversationId: fields.conversationId,
    version: fields.version,
    messageCount: fields.messageCount - fields.baseStart,
    system: fields.system as Message[],
    usage: fields.usage,
    createdAt: fields.createdAt,
    updatedAt: fields.updatedAt,
  };
  if (fields.model) header.model = fields.model;
  if (fields.base) header.base = fields.base;
  if (fields.lastPromptTokens !== undefined) header.lastPromptTokens = fields.lastPromptTokens;
  return header;
}
