/**
 * A run's durable view of a stored conversation (`services.conversationId`). The version read
 * at the start is journaled, so a replay reads the same history even after its own appends.
 * A turn (the user message, every model turn and tool batch, the answer) is appended whole, in
 * one journaled append when it is complete, carrying a deterministic `appendId`
 * (`<runId>:<position>`): no partial turn is ever visible to the next run, and an append that
 * landed just before a crash is not applied twice. On a worker each append names its writer
 * (`runId` + `attempt`), which must hold the conversation's lease.
 */
import type { Message, TokenUsage } from '@flotilla/ir';
import { ensureValidHistory } from '@flotilla/ir';
import type { AgentContext } from '../context/agent-context.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import { SETTLED } from '../shared/settled.js';
import type {
  AppendChange,
  ConversationBaseSource,
  ConversationModel,
  StoredConversation,
} from '../store/conversation-store.js';
import { type DurableResult, type DurableStep, durableStep } from './durable-step.js';

/** What goes with a turn's messages. */
export interface TurnDetails {
  system: Message[];
  model: ModelAdapter;
  /** The turn's usage (all its model turns). */
  usage?: TokenUsage;
  /** The provider's promptTokens of the turn's last model call (the context budget's feed). */
  lastPromptTokens?: number;
}

/** The stored conversation a policy extends. */
export class ConversationLog {
  private readonly context: AgentContext;
  private readonly conversationId: string;
  private version: number;
  /** The messages stored when the log was opened. */
  readonly history: Message[];
  /** The provider's promptTokens of the last model call behind `history` (its last message), when stored. */
  readonly lastPromptTokens: number | undefined;
  private systemSent = false;
  /** The model stored at `version`: an append by the same model leaves it out (bytes per turn). */
  private storedModel: ConversationModel | undefined;

  private constructor(
    context: AgentContext,
    conversationId: string,
    version: number,
    stored: StoredConversation | undefined,
  ) {
    this.context = context;
    this.conversationId = conversationId;
    this.version = version;
    // Conversations stored before turns were appended whole may end mid tool batch: repaired.
    this.history = ensureValidHistory(stored?.messages ?? []);
    this.lastPromptTokens = stored?.header.lastPromptTokens;
    this.storedModel = stored?.header.model;
  }

  /**
   * Opens the conversation at the version journaled for this position (the latest on first run).
   * Not async (nor is anything here on a run's path): the step's promise and one `.then` (an
   * async layer and each `await` cost a promise, each paying the async-context hooks).
   */
  static open(context: AgentContext, conversationId: string): Promise<ConversationLog> {
    const store = context.run.services.conversations;
    // The first execution keeps what it loaded (the latest version is the one it journals): a
    // second load of that same version cost as much again. A replay reads the journaled version.
    let loaded: StoredConversation | undefined;
    let step: Promise<DurableResult<{ version: number }>>;
    try {
      step = durableStep(context, {
        kind: 'conversation-load',
        position: context.nextPosition('conversation-load'),
        fingerprint: `conversation:${conversationId}`,
        // Its record rides with the run's next write (see appendStep).
        deferRecord: true,
        ...versionValue,
        execute: () =>
          store.load(conversationId).then((found) => {
            loaded = found;
            return { version: found?.header.version ?? 0 };
          }),
      });
    } catch (error) {
      return Promise.reject(error);
    }
    return step.then(({ value: { version }, replayed }) => {
      if (version === 0) return new ConversationLog(context, conversationId, 0, undefined);
      if (!replayed && loaded?.header.version === version)
        return new ConversationLog(context, conversationId, version, loaded);
      return store
        .load(conversationId, { version })
        .then((stored) => new ConversationLog(context, conversationId, version, stored));
    });
  }

  /** Appends a complete turn as one version; the system prompt goes with the first append. */
  appendTurn(messages: Message[], details: TurnDetails): Promise<void> {
    try {
      const position = this.context.nextPosition('conversation-append');
      const store = this.context.run.services.conversations;
      const change = this.#change(`${this.context.run.runId}:${position}`, messages, details);
      return durableStep(this.context, {
        kind: 'conversation-append',
        position,
        fingerprint: `conversation:${this.conversationId}`,
        ...appendStep(this.context, () => store.append(this.conversationId, change)),
      }).then(({ value }) => this.#appended(value.version, details));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Writes `messages` as the conversation's new base (a compacted history: summary and kept
   * turns), journaled like an append and under the same compare-and-set and lease; the turn in
   * progress is then appended on top of it. Returns the base's version.
   */
  writeBase(messages: Message[], details: TurnDetails, base: ConversationBaseSource): Promise<number> {
    try {
      const position = this.context.nextPosition('conversation-append');
      const store = this.context.run.services.conversations;
      const change = {
        ...this.#change(`${this.context.run.runId}:${position}:base`, messages, details),
        base,
      };
      return durableStep(this.context, {
        kind: 'conversation-append',
        position,
        fingerprint: `conversation-base:${this.conversationId}`,
        ...appendStep(this.context, () => store.append(this.conversationId, change)),
      }).then(({ value }) => {
        this.#appended(value.version, details);
        return value.version;
      });
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * Stores the turn a cancelled run had not finished, closed: every tool call without a result
   * gets the placeholder result `ensureValidHistory` gives (`[No tool result available]`), so the
   * next run sees a valid history. Not a durable step (the run is ending, its steps refuse to
   * run): a best-effort write, idempotent by its appendId, refused once the run lost its lease.
   */
  async closeUnfinishedTurn(messages: Message[], details: TurnDetails): Promise<void> {
    if (messages.length === 0) return;
    const position = this.context.nextPosition('conversation-append');
    const appendId = `${this.context.run.runId}:${position}:unfinished`;
    const closed = ensureValidHistory(messages) as Message[];
    await this.context.run.services.conversations.append(
      this.conversationId,
      this.#change(appendId, closed, details),
    );
  }

  #appended(version: number, details: TurnDetails): void {
    this.version = version;
    this.systemSent = true;
    this.storedModel = { provider: details.model.provider, id: details.model.id };
  }

  #change(appendId: string, messages: Message[], details: TurnDetails): AppendChange {
    const { runId, attempt } = this.context.run.services;
    const { provider, id } = details.model;
    const sameModel = this.storedModel?.provider === provider && this.storedModel.id === id;
    // Fields set one by one (no spread of a throwaway object per field: built on every turn).
    const change: AppendChange = { expectedVersion: this.version, appendId, messages };
    // Omitted = unchanged: the store keeps the model it has.
    if (!sameModel) change.model = { provider, id };
    if (!this.systemSent) change.system = details.system;
    if (details.usage) change.usage = details.usage;
    if (details.lastPromptTokens !== undefined) change.lastPromptTokens = details.lastPromptTokens;
    if (attempt !== undefined) change.holder = { runId, attempt };
    return change;
  }
}

/**
 * The records of a conversation's load and appends ride with the run's
 * next write (a model turn's, a tool's, the run's end: `deferRecord`) instead of going alone.
 * - A load lost in a crash is done again by the replay: under the same gate lease nothing
 *   appended in between (this run's own appends come after the load record is stored, below),
 *   so it reads the same version; nothing written after it claims otherwise (the run's later
 *   writes carry the load record or come after it, in order).
 * - An append first stores every record before it (`settleRecords`, as a step that is not
 *   deferred does): a replay then serves the same messages from the journal, never calling a
 *   model again for a turn already stored. Its own record lost in a crash, the replay appends
 *   the same turn again under the same `appendId`: the store applies it once (the applied
 *   marker) and returns the current version, the one it made (no other run appends while this
 *   one holds the lease), so the conversation matches the run's output.
 */
function appendStep(
  context: AgentContext,
  append: () => Promise<{ version: number }>,
): Pick<DurableStep<{ version: number }>, 'deferRecord' | 'execute' | 'jsonText' | 'readBack'> {
  return {
    deferRecord: true,
    ...versionValue,
    // Not async: the records' promise (when any) and the append's, one `.then` each.
    execute: () => {
      const appendSettled = (): Promise<{ version: number }> => {
        // A cancel (or a takeover) that came while they were written stops the append.
        context.throwIfAborted();
        return append().then(({ version }) => ({ version }));
      };
      const settled = context.run.settleRecords();
      return settled === SETTLED ? appendSettled() : settled.then(appendSettled);
    },
  };
}

/**
 * The JSON of a load's or an append's value, `{ version }`, written and read back without
 * `JSON.stringify` / `JSON.parse` (two calls per step): the step built the value itself and
 * nobody else holds it, so an integer version reads back as the value as it is.
 */
const versionValue: Pick<DurableStep<{ version: number }>, 'jsonText' | 'readBack'> = {
  jsonText: (value) => (isPlainVersion(value.version) ? `{"version":${value.version}}` : undefined),
  readBack: (value) => (isPlainVersion(value.version) ? value : undefined),
};

/** A version JSON writes as it is and reads back the same (an integer, not -0). */
function isPlainVersion(version: number): boolean {
  return Number.isSafeInteger(version) && !Object.is(version, -0);
}
