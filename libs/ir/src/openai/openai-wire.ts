/**
 * Minimal declarations of the OpenAI Chat Completions request shapes that `@flotilla/ir` reads
 * (input adapter) and writes (target adapter). Our own types, not the SDK's: `libs/ir` has no
 * provider dependency. Values of these types are assignable to the SDK's request params.
 */

/** `{ type: 'text', text }` content part. */
export interface OpenAITextPart {
  type: 'text';
  text: string;
}

/** `{ type: 'refusal', refusal }` part; only on assistant messages. */
export interface OpenAIRefusalPart {
  type: 'refusal';
  refusal: string;
}

/** An image by `http(s)` URL or `data:` URL. */
export interface OpenAIImagePart {
  type: 'image_url';
  image_url: { url: string; detail?: 'auto' | 'low' | 'high' };
}

/** Base64 audio; the API takes only `wav` and `mp3`. */
export interface OpenAIInputAudioPart {
  type: 'input_audio';
  input_audio: { data: string; format: 'wav' | 'mp3' };
}

/** A file (PDF …) as a `data:` URL in `file_data`, or an uploaded `file_id`. */
export interface OpenAIFilePart {
  type: 'file';
  file: { file_data?: string; file_id?: string; filename?: string };
}

/** Any part a user message may carry. */
export type OpenAIUserContentPart = OpenAITextPart | OpenAIImagePart | OpenAIInputAudioPart | OpenAIFilePart;

/** A function tool call on an assistant message; `arguments` is JSON text. */
export interface OpenAIMessageToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface OpenAISystemMessageParam {
  role: 'system';
  content: string | OpenAITextPart[];
  name?: string;
}

/** The newer name of a system message (o-series models). */
export interface OpenAIDeveloperMessageParam {
  role: 'developer';
  content: string | OpenAITextPart[];
  name?: string;
}

export interface OpenAIUserMessageParam {
  role: 'user';
  content: string | OpenAIUserContentPart[];
  name?: string;
}

export interface OpenAIAssistantMessageParam {
  role: 'assistant';
  content?: string | Array<OpenAITextPart | OpenAIRefusalPart> | null;
  tool_calls?: OpenAIMessageToolCall[];
  refusal?: string | null;
  name?: string;
}

export interface OpenAIToolMessageParam {
  role: 'tool';
  content: string | OpenAITextPart[];
  tool_call_id: string;
}

/** Deprecated `function` role; read by the input adapter only, never emitted. */
export interface OpenAIFunctionMessageParam {
  role: 'function';
  content: string | null;
  name: string;
}

/** One Chat Completions message, as sent in `messages`. */
export type OpenAIChatMessageParam =
  | OpenAISystemMessageParam
  | OpenAIDeveloperMessageParam
  | OpenAIUserMessageParam
  | OpenAIAssistantMessageParam
  | OpenAIToolMessageParam
  | OpenAIFunctionMessageParam;

/** A tool in Chat Completions' `tools` array. `parameters` is a JSON Schema object. */
export interface OpenAIFunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}
