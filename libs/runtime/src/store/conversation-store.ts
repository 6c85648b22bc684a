/**
 * The conversation store contract (ARCHITECTURE.md §3): a conversation is an append-only log
 * of IR messages plus a header. Every append is compare-and-set on the version and idempotent
 * by `appendId`; every version stays readable. Implementations:
 * {@link InMemoryConversationStore} (embedded mode, tests) and `RedisConversationStore`.
 */
import type { Message, TokenUsage } from '@flotilla/ir';

export {
  ConversationBusyError,
  ConversationConflictError,
  ConversationCorruptedError,
  ConversationLeaseLostError,
  ConversationVersionNotFoundError,
} from './store-errors.js';

/** The provider and model that produced the latest turn. */
export interface ConversationModel {
  provider: string;
  id: string;
}

/** What is known about a conversation at one version. */
export interface ConversationHeader {
  schemaVersion: 1;
  conversationId: string;
  /** 0 = nothing stored yet; every append (and every base) adds 1. */
  version: number;
  /** How many messages this version holds (its base's and those appended after it). */
  messageCount: number;
  /**
   * The base this version builds on, when the conversation was compacted at or before it: a
   * version written whole (a summary plus the turns kept) instead of appended. Absent = the
   * version builds on the conversation's first message.
   */
  base?: ConversationBase;
  /** The system prompt at this version. */
  system: Message[];
  model?: ConversationModel;
  /** Token usage totals up to this version. */
  usage: TokenUsage;
  /** ISO timestamps. */
  createdAt: string;
  updatedAt: string;
  /**
   * The prompt tokens the provider reported for the last model call of the latest turn that
   * said so (the context budget's feed across runs).
   */
  lastPromptTokens?: number;
}

/**
 * Where a base came from: written by a run's context budget (`equipContextBudget`) when the
 * prompt outgrew `maxPromptTokens`, replacing the messages of version `compactedFrom`.
 */
export interface ConversationBase {
  /** The version the base was written as. */
  version: number;
  /** The version whose messages it replaces (every earlier version stays readable). */
  compactedFrom: number;
  /** ISO timestamp of the write. */
  createdAt: string;
  /** Always `'compaction'` today. */
  reason: 'compaction';
  /** The run that wrote it. */
  runId?: string;
  /** How many turns and messages of `compactedFrom` the summary replaced. */
  turnsSummarised: number;
  messagesSummarised: number;
  /** The model that wrote the summary. */
  summarizer?: ConversationModel;
  /** Prompt tokens (as the agent's model counts them) before and after the compaction. */
  tokensBefore: number;
  tokensAfter: number;
}

/** What the writer of a base supplies; the store adds `version`, `compactedFrom`, `createdAt`. */
export type ConversationBaseSource = Omit<ConversationBase, 'version' | 'compactedFrom' | 'createdAt'>;

/** A conversation as loaded: the header and every message up to the header's version. */
export interface StoredConversation {
  header: ConversationHeader;
  messages: Message[];
}

/** One append: new messages on top of `expectedVersion`. */
export interface AppendChange {
  /** Compare-and-set: the version the writer built on (0 for a new conversation). */
  expectedVersion: number;
  /** Idempotency token: applying the same `appendId` twice is a no-op that returns the header. */
  appendId: string;
  /** IR messages to append; media may be inline (the store moves large media to blobs). */
  messages: Message[];
  /**
   * Writes `messages` as a new base instead of appending them: the new version holds exactly
   * `messages` (no earlier ones), and later appends build on it. Same compare-and-set, lease
   * and `appendId` rules as an append. @default an append
   */
  base?: ConversationBaseSource;
  /** Replaces the system prompt from this version on; omitted = unchanged. */
  system?: Message[];
  /** The provider's reported promptTokens of this turn's last model call; omitted = unchanged. */
  lastPromptTokens?: number;
  /** The model of this turn; omitted = unchanged. */
  model?: ConversationModel;
  /** Usage of this turn; ADDED to the totals. */
  usage?: TokenUsage;
  /**
   * The execution writing (a worker's run attempt). The Redis store refuses the append unless
   * this holder has the conversation's lease; an append without a holder is refused while any
   * run holds it. Ignored by the in-memory store (embedded runs have no gate).
   */
  holder?: ConversationWriter;
}

/** One execution attempt of one run, as it holds a conversation's lease. */
export interface ConversationWriter {
  runId: string;
  /** Opaque token unique to one execution attempt (`RunServices.attempt`). */
  attempt: string;
}

/** Options of {@link ConversationStore.load}. */
export interface LoadConversationOptions {
  /** Read the conversation as it was at this version. @default the latest version */
  version?: number;
}

/** Where conversations live. */
export interface ConversationStore {
  /**
   * The conversation at `options.version` (default: latest), or `undefined` when nothing was
   * ever stored under `conversationId`.
   * @throws ConversationVersionNotFoundError when the version was never reached
   * @throws ConversationCorruptedError when stored data fails validation
   */
  load(conversationId: string, options?: LoadConversationOptions): Promise<StoredConversation | undefined>;
  /**
   * Appends `change.messages` as version `expectedVersion + 1` (or, with `change.base`, writes
   * them as that version's whole history) and returns the new header; a repeated `appendId`
   * returns the current header without writing.
   * @throws ConversationConflictError when the stored version is not `expectedVersion`
   * @throws ConversationLeaseLostError (Redis store) when `change.holder` does not hold the lease
   */
  append(conversationId: string, change: AppendChange): Promise<ConversationHeader>;
}
