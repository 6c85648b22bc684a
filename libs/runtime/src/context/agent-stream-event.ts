/**
 * What an `onStream` consumer receives, per model turn of the current agent, in this order:
 * `turn-start` → deltas and `structured-data` (streaming) → the final `structured-data` → `tool-call`
 * × n → `usage` → `turn-end` (always the last event of a turn, before tools run). Replayed turns emit `turn-start`, their `tool-call`s and `turn-end`.
 */
import type { FinishReason, TokenUsage, ToolCall } from '@flotilla/ir';

/** One stream event; `turnIndex` counts the generation's model turns from 0. */
export type AgentStreamEvent = { turnIndex: number } & (
  | { type: 'turn-start' }
  | { type: 'text-delta'; delta: string }
  | { type: 'reasoning-delta'; delta: string }
  | { type: 'tool-call-delta'; index: number; id?: string; name?: string; argumentsDelta?: string }
  | {
      /**
       * The answer's JSON parsed so far (seed: `structured_data`): `streaming` after each text
       * delta that changes it, then `complete` (or `error` when a schema-constrained answer is
       * no JSON). With a schema, `isValid` says its top-level keys are all schema properties
       * (`data` is `{}` when not); without one, only JSON objects are reported.
       */
      type: 'structured-data';
      status: 'streaming' | 'complete' | 'error';
      data: unknown;
      isValid: boolean;
    }
  | { type: 'tool-call'; toolCall: ToolCall }
  | { type: 'usage'; usage: TokenUsage }
  | { type: 'turn-end'; finishReason: FinishReason['unified']; replayed: boolean }
  | { type: 'error'; error: { name: string; message: string } }
);
