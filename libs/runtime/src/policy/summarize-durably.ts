/**
 * The summary of a context budget as a durable step (`context-summary` in the journal): the
 * summariser's text is recorded, so a replay, a retry or another worker taking the run over
 * rebuilds the same compacted history without calling a model again. A failure is recorded
 * too, so the circuit breaker counts the same failures on replay and positions stay aligned.
 */
import { type Message, type SummarizeRequest, summarizeHistory } from '@flotilla/ir';
import type { AgentContext } from '../context/agent-context.js';
import { durableStep } from '../engine/durable-step.js';
import { applyUsage, callWithinUsageBudget } from '../engine/usage-budget.js';
import { AbortError } from '../errors/run-errors.js';
import { DEFAULT_JSON_LIMITS } from '../json/json-bounds.js';
import { checkModelResponse } from '../model/check-model-response.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import type { UsageStats } from '../usage/usage-stats.js';

/** What to summarise. */
export interface SummaryRequest {
  /** The history the summary replaces part of (no system prompt, no turn in progress). */
  history: Message[];
  keepRecentTurns: number;
  summarizer: ModelAdapter;
  /** Tool results longer than this reach the summariser as a one-line stub. */
  toolResultStubThreshold: number;
}

/** A compacted history, or `undefined` when there was nothing to summarise. */
export interface DurableSummary {
  history: Message[];
  turnsSummarised: number;
  messagesSummarised: number;
  replayed: boolean;
}

interface RecordedSummary {
  /** The summariser's text ('' = nothing was summarised). */
  text: string;
  turnsSummarised: number;
}

/**
 * Serves the summary at the next `context-summary` position from the journal, or asks the
 * summariser and records its text.
 * @throws the summariser's error (recorded), or an Error when it answered with no text
 */
export async function summarizeDurably(
  context: AgentContext,
  request: SummaryRequest,
): Promise<DurableSummary | undefined> {
  const options = {
    keepRecentTurns: request.keepRecentTurns,
    media: 'placeholder' as const,
    toolResultStubThreshold: request.toolResultStubThreshold,
  };
  const spent: { stats?: UsageStats } = {};
  const { value, replayed } = await durableStep<RecordedSummary>(context, {
    kind: 'context-summary',
    position: context.nextPosition('context-summary'),
    fingerprint: `context-summary:${request.keepRecentTurns}:${request.history.length}`,
    // A cancel is not a failed summary: the run ends, and a replay must not count it.
    recordFailure: (error) => !context.signal.aborted && !AbortError.is(error),
    usage: () => spent.stats,
    onReplay: (recorded) => {
      if (recorded.usage) applyUsage(context, recorded.usage, true);
    },
    span: { name: 'flotilla.context-summary', attributes: { 'gen_ai.request.model': request.summarizer.id } },
    execute: async () => {
      let text: string | undefined;
      const result = await summarizeHistory(request.history, {
        ...options,
        summarize: async (summary) => {
          text = await askSummarizer(context, request.summarizer, summary, spent);
          return text;
        },
      });
      if (text === undefined) return { text: '', turnsSummarised: 0 };
      if (result.summary === undefined)
        throw new Error(`the summariser ${request.summarizer.id} answered no text`);
      return { text: text ?? '', turnsSummarised: countTurns(result.replaced) };
    },
  });
  if (value.text === '') return undefined;
  // Rebuilt from the recorded text: the same split, the same summary message, no model call.
  const rebuilt = await summarizeHistory(request.history, { ...options, summarize: async () => value.text });
  return {
    history: rebuilt.history,
    turnsSummarised: value.turnsSummarised,
    messagesSummarised: rebuilt.replaced.length,
    replayed,
  };
}

async function askSummarizer(
  context: AgentContext,
  model: ModelAdapter,
  request: SummarizeRequest,
  spent: { stats?: UsageStats },
): Promise<string> {
  const messages: Message[] = [...request.messages, { role: 'user', content: request.instructions }];
  // A summary is a model call: it is held to the usage budget and counts like a turn.
  const response = await callWithinUsageBudget(
    context,
    model,
    { messages },
    async () =>
      checkModelResponse(
        await model.generate({ messages, signal: context.signal }),
        model,
        context.run.services.limits ?? DEFAULT_JSON_LIMITS,
      ),
    spent,
  );
  return response.message.content;
}

function countTurns(messages: Message[]): number {
  // A turn starts at every message that is not a tool result (tool results belong to their call).
  return messages.filter((message) => message.role !== 'tool').length;
}
