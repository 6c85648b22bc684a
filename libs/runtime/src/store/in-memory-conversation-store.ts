import { addUsage, emptyUsage, type Message } from '@flotilla/ir';
import type {
  AppendChange,
  ConversationHeader,
  ConversationStore,
  LoadConversationOptions,
  StoredConversation,
} from './conversation-store.js';
import { ConversationConflictError, ConversationVersionNotFoundError } from './store-errors.js';

interface MemoryConversation {
  /** Every message ever written, bases included, in write order. */
  messages: Message[];
  /** `headers[v]` is the header at version v (index 0 = the empty conversation). */
  headers: ConversationHeader[];
  /** `starts[v]`: index in `messages` of version v's first message (moves at each base). */
  starts: number[];
  appendIds: Set<string>;
}

/**
 * A {@link ConversationStore} in process memory with the same semantics as the Redis store:
 * compare-and-set appends and bases, idempotent `appendId`, every version readable. Values are cloned on
 * the way in and out, so callers never share objects with the store. Used by embedded mode and
 * tests; nothing survives the process.
 */
export class InMemoryConversationStore implements ConversationStore {
  readonly #conversations = new Map<string, MemoryConversation>();
  readonly #now: () => Date;

  /** @param now clock for `createdAt` / `updatedAt`; @default `() => new Date()` */
  constructor(options: { now?: () => Date } = {}) {
    this.#now = options.now ?? (() => new Date());
  }

  async load(
    conversationId: string,
    options: LoadConversationOptions = {},
  ): Promise<StoredConversation | undefined> {
    const conversation = this.#conversations.get(conversationId);
    if (!conversation) return undefined;
    const latest = conversation.headers.length - 1;
    const version = options.version ?? latest;
    const header = conversation.headers[version];
    if (!Number.isInteger(version) || header === undefined) {
      throw new ConversationVersionNotFoundError(conversationId, version, latest);
    }
    const start = conversation.starts[version] ?? 0;
    return structuredClone({
      header,
      messages: conversation.messages.slice(start, start + header.messageCount),
    });
  }

  async append(conversationId: string, change: AppendChange): Promise<ConversationHeader> {
    const conversation = this.#conversations.get(conversationId) ?? this.#create(conversationId);
    const current = conversation.headers.at(-1)!;
    if (conversation.appendIds.has(change.appendId)) return structuredClone(current);
    if (current.version !== change.expectedVersion) {
      throw new ConversationConflictError(conversationId, change.expectedVersion, current.version);
    }
    const now = this.#now().toISOString();
    const version = current.version + 1;
    const next: ConversationHeader = {
      ...current,
      version,
      messageCount: (change.base ? 0 : current.messageCount) + change.messages.length,
      system: change.system ?? current.system,
      usage: change.usage ? addUsage(current.usage, change.usage) : current.usage,
      updatedAt: now,
    };
    const model = change.model ?? current.model;
    if (model) next.model = model;
    if (change.base) delete next.lastPromptTokens;
    if (change.lastPromptTokens !== undefined) next.lastPromptTokens = change.lastPromptTokens;
    if (change.base) next.base = { version, compactedFrom: current.version, createdAt: now, ...change.base };
    const start = change.base ? conversation.messages.length : conversation.starts.at(-1)!;
    conversation.messages.push(...structuredClone(change.messages));
    conversation.headers.push(structuredClone(next));
    conversation.starts.push(start);
    conversation.appendIds.add(change.appendId);
    if (!this.#conversations.has(conversationId)) this.#conversations.set(conversationId, conversation);
    return structuredClone(next);
  }

  #create(conversationId: string): MemoryConversation {
    const now = this.#now().toISOString();
    const empty: ConversationHeader = {
      schemaVersion: 1,
      conversationId,
      version: 0,
      messageCount: 0,
      system: [],
      usage: emptyUsage(),
      createdAt: now,
      updatedAt: now,
    };
    return { messages: [], headers: [empty], starts: [0], appendIds: new Set() };
  }
}
