/**
 * A run's durable view of a stored conversation (`services.conversationId`). The version read
 * at the start is journaled, so a replay reads the same history even after its own appends;
 * each append is journaled and carries a deterministic `appendId` (`<runId>:<position>`), so
 * an append that landed just before a crash is not applied twice.
 */
import type { Message, TokenUsage } from '@flotilla/ir';
import { ensureValidHistory } from '@flotilla/ir';
import type { AgentContext } from '../context/agent-context.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import { durableStep } from './durable-step.js';

/** The stored conversation a policy extends. */
export class ConversationLog {
  private readonly context: AgentContext;
  private readonly conversationId: string;
  private version: number;
  /** The messages stored when the log was opened. */
  readonly history: Message[];
  private systemSent = false;

  private constructor(context: AgentContext, conversationId: string, version: number, history: Message[]) {
    this.context = context;
    this.conversationId = conversationId;
    this.version = version;
    this.history = history;
  }

  /** Opens the conversation at the version journaled for this position (the latest on first run). */
  static async open(context: AgentContext, conversationId: string): Promise<ConversationLog> {
    const store = context.run.services.conversations;
    const { value } = await durableStep(context, {
      kind: 'conversation-load',
      position: context.nextPosition('conversation-load'),
      fingerprint: `conversation:${conversationId}`,
      execute: async () => ({ version: (await store.load(conversationId))?.header.version ?? 0 }),
    });
    const stored =
      value.version > 0 ? await store.load(conversationId, { version: value.version }) : undefined;
    // A conversation interrupted mid tool batch is repaired so the model sees a valid history.
    const history = ensureValidHistory(stored?.messages ?? []);
    return new ConversationLog(context, conversationId, value.version, history);
  }

  /** Appends `messages` (with this turn's usage); the system prompt goes with the first append. */
  async append(messages: Message[], details: { system: Message[]; model: ModelAdapter; usage?: TokenUsage }) {
    const position = this.context.nextPosition('conversation-append');
    const store = this.context.run.services.conversations;
    const change = {
      expectedVersion: this.version,
      appendId: `${this.context.run.runId}:${position}`,
      messages,
      model: { provider: details.model.provider, id: details.model.id },
      ...(this.systemSent ? {} : { system: details.system }),
      ...(details.usage ? { usage: details.usage } : {}),
    };
    const { value } = await durableStep(this.context, {
      kind: 'conversation-append',
      position,
      fingerprint: `conversation:${this.conversationId}`,
      execute: async () => ({ version: (await store.append(this.conversationId, change)).version }),
    });
    this.version = value.version;
    this.systemSent = true;
  }
}
