import type { Attachment } from './attachment.js';

/** Who said a message. `tool` messages carry one tool result each, linked by `tool_call_id`. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** A tool call made by an assistant message. `arguments` is JSON text, as providers send it. */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  /** Gemini's signature of this `functionCall` part; only the Gemini target emits it. */
  thoughtSignature?: string;
}

/** Anthropic-style visible reasoning. */
export interface ThinkingContent {
  thinking: string;
  signature?: string;
}

/** Opaque, provider-encrypted reasoning; never turned into text. */
export interface RedactedThinking {
  data: string;
}

/**
 * One message of a conversation. `content` is always a string of text (`''` allowed); media
 * lives in `attachments`, tool calls in `tool_calls`, reasoning in `thinking`.
 *
 * Fields starting with `_` are provider passthrough or markers: targets read the ones they
 * know and never copy any other field into a payload (output fields are whitelisted).
 */
export interface Message {
  role: Role;
  content: string;
  /**
   * On tool messages: the tool's name. On user, system and assistant messages: the participant
   * name OpenAI Chat Completions takes (`name`); other targets have no place for it.
   */
  name?: string;
  tool_calls?: ToolCall[];
  tool_call_id?: string;
  /** Cache the prompt prefix up to and including this message; only Anthropic honours it. */
  _cache_breakpoint?: boolean;
  thinking?: ThinkingContent;
  redacted_thinking?: RedactedThinking;
  attachments?: Attachment[];
  /** Raw OpenAI Responses `reasoning` items, re-emitted verbatim by the `openai-responses` target. */
  _openai_reasoning?: unknown[];
  /**
   * Raw OpenAI Responses items of types the IR does not model (hosted tool calls such as
   * `web_search_call`, `item_reference`, MCP / computer items …), kept verbatim on the assistant
   * message they precede. The `openai-responses` target re-emits them by reference right AFTER
   * `_openai_reasoning` and before this message's own items; every other target ignores them.
   */
  _openai_responses_items?: unknown[];
  /** Gemini's signature of this message's text part, re-emitted by the Gemini target. */
  _gemini_thought_signature?: string;
  /**
   * On a `system` message inside `history`: a system message that appeared mid-conversation and
   * must keep its place (input adapters split off only the LEADING system messages). Targets
   * that cannot place a system message mid-conversation turn it into user text in place.
   */
  _positional?: boolean;
  /** On a `tool` message: the tool reported failure (Anthropic `is_error: true`). */
  _tool_error?: boolean;
  /**
   * The summary text of an Anthropic server-side `compaction` block, re-sent to Anthropic as
   * that block (first in the message). Other targets drop it with an
   * `anthropic-compaction-dropped` warning: the API had summarised earlier turns that the
   * IR still holds, and only Anthropic reads the block.
   */
  _anthropic_compaction?: string;
  /** Keep this message (and its turn) verbatim when {@link summarizeHistory} compacts. */
  pinned?: boolean;
  [key: string]: unknown;
}

/**
 * A message that may appear after the system prompt: user, assistant and tool messages, plus
 * the system messages that appeared mid-conversation, marked `_positional: true` and kept in
 * place (leading system messages always go to {@link ParsedMessages.system}).
 */
export type HistoryMessage =
  | (Message & { role: 'user' | 'assistant' | 'tool' })
  | (Message & { role: 'system'; _positional: true });

/** What every input adapter returns: system messages split off, history sanitised. */
export interface ParsedMessages {
  system: Message[];
  history: HistoryMessage[];
}
