/**
 * The context budget at work inside the tool-call loop (`equipContextBudget`): before each
 * model turn it fits the prompt under `maxPromptTokens` — as is, then with the `clear` steps,
 * then with older turns summarised (a journaled step; on a stored conversation the result is
 * written as a new base version) — and as tool results arrive it offloads the large ones.
 *
 * What may be summarised: on a stored conversation, the history before the turn in progress
 * (the turn is appended whole later, on top of the base); otherwise everything after the
 * system prompts and instructions except the latest turn. The compacted part replaces the
 * loop's messages from then on (`#prefix` stands for the first `#replaced` of them).
 */
import { compact, groupIntoTurns, type Message, type TokenUsage } from '@flotilla/ir';
import type { ResolvedContextBudget } from '../budget/context-budget-options.js';
import { offloadToolResults } from '../budget/offload-tool-results.js';
import { PromptTokenCounter } from '../budget/prompt-token-counter.js';
import type { AgentContext } from '../context/agent-context.js';
import { outputsOf } from '../context/outputs-of.js';
import type { ConversationLog } from '../engine/conversation-log.js';
import { ContextBudgetExceededError } from '../errors/budget-errors.js';
import { serializeError } from '../errors/serialize-error.js';
import type { PromptContext } from './prompt-context.js';
import { agentContextOf } from './prompt-context.js';
import { summarizeDurably } from './summarize-durably.js';

/** Summaries tried for one turn before the circuit breaker opens. */
export const MAX_FAILED_SUMMARIES = 3;
/** Tool results longer than this reach the summariser as a stub when nothing is offloaded. */
const SUMMARY_TOOL_RESULT_CHARS = 2000;

interface Measured {
  messages: Message[];
  tokens: number;
  counted: number;
}

export class ContextWindow {
  readonly #context: AgentContext;
  readonly #runtime: PromptContext;
  readonly #budget: ResolvedContextBudget;
  readonly #log: ConversationLog | undefined;
  readonly #counter: PromptTokenCounter;
  /** Messages at the start of every prompt that are never summarised (system, instructions). */
  readonly #fixed: number;
  /** On a stored conversation: where its history ends in the loop's messages. */
  readonly #storedEnd: number | undefined;
  #prefix: Message[] | undefined;
  #replaced = 0;
  #lastCounted = 0;
  #fed = false;

  private constructor(
    runtime: PromptContext,
    budget: ResolvedContextBudget,
    log: ConversationLog | undefined,
  ) {
    this.#context = agentContextOf(runtime);
    this.#runtime = runtime;
    this.#budget = budget;
    this.#log = log;
    const tools = runtime.tools.length > 0 ? runtime.tools.map((tool) => tool.ir) : undefined;
    this.#counter = new PromptTokenCounter(runtime.model, tools);
    this.#fixed = runtime.messages.length;
    this.#storedEnd = log ? this.#fixed + log.history.length : undefined;
  }

  /** The window of the calling generation's budget, or `undefined` without `equipContextBudget`. */
  static open(runtime: PromptContext, log?: ConversationLog): ContextWindow | undefined {
    const budget = agentContextOf(runtime).draft.contextBudget;
    return budget ? new ContextWindow(runtime, budget, log) : undefined;
  }

  /**
   * The prompt to send for the loop's `messages`: within budget, or the run fails.
   * @throws ContextBudgetExceededError when it cannot be brought under `maxPromptTokens`
   */
  async fit(messages: Message[]): Promise<Message[]> {
    if (!this.#fed) await this.#feedFromStore(messages);
    const prompt = this.#prefix ? [...this.#prefix, ...messages.slice(this.#replaced)] : messages;
    const measured = await this.#measure(prompt);
    if (this.#fits(measured)) return this.#send(measured);
    const cleared = await this.#cleared(measured);
    if (this.#fits(cleared)) return this.#send(cleared);
    return this.#send(await this.#summarise(messages, measured));
  }

  /**
   * The feed across runs: the stored conversation remembers the provider's promptTokens of the
   * call that wrote its last message, whose prompt was everything before that message.
   */
  async #feedFromStore(messages: Message[]): Promise<void> {
    this.#fed = true;
    const reported = this.#log?.lastPromptTokens;
    const history = this.#log?.history ?? [];
    if (reported === undefined || history.at(-1)?.role !== 'assistant') return;
    const previous = [...messages.slice(0, this.#fixed), ...history.slice(0, -1)];
    this.#counter.report(await this.#counter.counted(previous), reported);
  }

  /** Feeds the provider's reported usage of the turn just sent. */
  report(usage: TokenUsage): void {
    this.#counter.report(this.#lastCounted, usage.promptTokens);
  }

  /** `messages` with tool results over `offloadToolResultsOver` offloaded (as they enter the conversation). */
  async offload(messages: Message[]): Promise<Message[]> {
    const threshold = this.#budget.offloadToolResultsOver;
    if (threshold === undefined) return messages;
    const outputs = outputsOf(this.#context.run.services);
    const result = await offloadToolResults(messages, threshold, outputs);
    for (const { toolCallId, name, id, chars } of result.offloaded) {
      this.#context.run.emit({
        type: 'tool-output-offloaded',
        callPath: this.#context.callPath,
        toolCallId,
        name,
        outputId: id,
        chars,
      });
    }
    return result.messages;
  }

  async #summarise(messages: Message[], before: Measured): Promise<Measured> {
    const summarizer = this.#budget.summarizeWith ?? this.#runtime.model;
    let prompt = before.messages;
    let last = before;
    let turnsSummarised = 0;
    let messagesSummarised = 0;
    let replayed = true;
    for (let attempt = 1; attempt <= MAX_FAILED_SUMMARIES; attempt++) {
      const [start, end] = this.#region(prompt);
      const keepRecentTurns = this.#keepFor(attempt);
      let problem: unknown;
      try {
        const summary = await summarizeDurably(this.#context, {
          history: prompt.slice(start, end),
          keepRecentTurns,
          summarizer,
          toolResultStubThreshold: this.#budget.offloadToolResultsOver ?? SUMMARY_TOOL_RESULT_CHARS,
        });
        if (!summary) {
          // Nothing older than even the fewest kept turns: no summary can help.
          if (keepRecentTurns === this.#keepFor(MAX_FAILED_SUMMARIES)) break;
          problem = new Error(`nothing older than the last ${keepRecentTurns} turns to summarise`);
        } else {
          prompt = [...prompt.slice(0, start), ...summary.history, ...prompt.slice(end)];
          turnsSummarised += summary.turnsSummarised;
          messagesSummarised += summary.messagesSummarised;
          replayed &&= summary.replayed;
          last = await this.#cleared(await this.#measure(prompt));
          if (this.#fits(last)) {
            await this.#commit(messages, prompt.slice(start, start + summary.history.length), {
              tokensBefore: before.tokens,
              tokensAfter: last.tokens,
              turnsSummarised,
              messagesSummarised,
              replayed,
            });
            return last;
          }
          problem = new Error(`the prompt still needs ${last.tokens} tokens after the summary`);
        }
      } catch (error) {
        if (ContextBudgetExceededError.is(error)) throw error;
        problem = error;
      }
      this.#context.run.emit({
        type: 'context-compaction-failed',
        callPath: this.#context.callPath,
        attempt,
        error: serializeError(problem),
        circuitOpen: attempt === MAX_FAILED_SUMMARIES,
      });
      if (attempt === MAX_FAILED_SUMMARIES) {
        throw this.#exceeded(last.tokens, attempt, `${attempt} summaries failed (${describe(problem)})`);
      }
    }
    throw this.#exceeded(last.tokens, 0, 'there are no older turns to summarise');
  }

  /** Makes the compacted history the loop's from now on; on a stored conversation, its new base. */
  async #commit(
    messages: Message[],
    history: Message[],
    figures: {
      tokensBefore: number;
      tokensAfter: number;
      turnsSummarised: number;
      messagesSummarised: number;
      replayed: boolean;
    },
  ): Promise<void> {
    const fixed = messages.slice(0, this.#fixed);
    let version: number | undefined;
    if (this.#log && this.#storedEnd !== undefined) {
      const summarizer = this.#budget.summarizeWith ?? this.#runtime.model;
      version = await this.#log.writeBase(
        history,
        { system: this.#runtime.system, model: this.#runtime.model },
        {
          reason: 'compaction',
          runId: this.#context.run.runId,
          turnsSummarised: figures.turnsSummarised,
          messagesSummarised: figures.messagesSummarised,
          summarizer: { provider: summarizer.provider, id: summarizer.id },
          tokensBefore: figures.tokensBefore,
          tokensAfter: figures.tokensAfter,
        },
      );
      this.#replaced = this.#storedEnd;
    } else {
      this.#replaced = messages.length;
    }
    // A stored history is followed by the turn in progress (still in `messages`); an
    // in-memory one was summarised whole.
    this.#prefix = [...fixed, ...history];
    const { replayed, ...rest } = figures;
    this.#context.run.emit({
      type: 'context-compacted',
      callPath: this.#context.callPath,
      ...rest,
      ...(version === undefined ? {} : { version }),
      replayed,
    });
  }

  /** [start, end) of what may be summarised in `prompt`. */
  #region(prompt: Message[]): [number, number] {
    if (this.#storedEnd === undefined) return [this.#fixed, prompt.length];
    const storedLength = this.#prefix ? this.#prefix.length : this.#storedEnd;
    return [this.#fixed, storedLength];
  }

  /**
   * Turns kept by the summary of `attempt`: `keepRecentTurns`, then half, then none (the turn
   * in progress always stays; an in-memory prompt keeps at least its latest turn).
   */
  #keepFor(attempt: number): number {
    const keep = this.#budget.keepRecentTurns;
    const kept = attempt === 1 ? keep : attempt === 2 ? Math.floor(keep / 2) : 0;
    return this.#storedEnd === undefined ? Math.max(1, kept) : kept;
  }

  /** `measured` with the `clear` steps applied to everything older than the kept turns. */
  async #cleared(measured: Measured): Promise<Measured> {
    if (this.#budget.clear.length === 0) return measured;
    const prompt = measured.messages;
    const cut = keptTurnsStart(prompt, Math.max(1, this.#budget.keepRecentTurns));
    const older = prompt.slice(0, cut);
    const cleared = compact(older, { clear: this.#budget.clear });
    if (cleared === older) return measured;
    return this.#measure([...cleared, ...prompt.slice(cut)]);
  }

  async #measure(messages: Message[]): Promise<Measured> {
    const counted = await this.#counter.counted(messages);
    return { messages, counted, tokens: this.#counter.corrected(counted) };
  }

  #fits(measured: Measured): boolean {
    return measured.tokens <= this.#budget.maxPromptTokens;
  }

  #send(measured: Measured): Message[] {
    this.#lastCounted = measured.counted;
    return measured.messages;
  }

  #exceeded(tokens: number, failedSummaries: number, reason: string): ContextBudgetExceededError {
    return new ContextBudgetExceededError({
      maxPromptTokens: this.#budget.maxPromptTokens,
      promptTokens: tokens,
      failedSummaries,
      reason,
    });
  }
}

/** Index of the first message of the last `keep` non-system turns of `prompt`. */
function keptTurnsStart(prompt: Message[], keep: number): number {
  const turns = groupIntoTurns(prompt);
  let remaining = keep;
  let index = turns.length;
  while (remaining > 0 && index > 0) {
    index -= 1;
    if (turns[index]?.messages[0]?.role !== 'system') remaining -= 1;
  }
  return turns[index]?.start ?? prompt.length;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
