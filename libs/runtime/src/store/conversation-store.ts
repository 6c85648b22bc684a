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
  /** 0 = nothing stored yet; every append adds 1. */
  version: number;
  messageCount: number;
  /** The system prompt at this version. */
  system: Message[];
  model?: ConversationModel;
  /** Token usage totals up to this version. */
  usage: TokenUsage;
  /** ISO timestamps. */
  createdAt: string;
  updatedAt: string;
}

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
  /** Replaces the system prompt from this version on; omitted = unchanged. */
  system?: Message[];
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
   * Appends `change.messages` as version `expectedVersion + 1` and returns the new header; a
   * repeated `appendId` returns the current header without writing.
   * @throws ConversationConflictError when the stored version is not `expectedVersion`
   * @throws ConversationLeaseLostError (Redis store) when `change.holder` does not hold the lease
   */
  append(conversationId: string, change: AppendChange): Promise<ConversationHeader>;
}
