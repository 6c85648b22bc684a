/**
 * Minimal declarations of the Anthropic Messages API request shapes that `@flotilla/ir` reads
 * and writes. Our own types, not the SDK's; values are assignable to the SDK's request params.
 */

/** Marks the end of a cacheable prompt prefix. */
export interface AnthropicCacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

export interface AnthropicTextBlock {
  type: 'text';
  text: string;
  cache_control?: AnthropicCacheControl;
}

/** Raw base64 (no `data:` prefix) with its media type. */
export interface AnthropicBase64Source {
  type: 'base64';
  media_type: string;
  data: string;
}

export interface AnthropicUrlSource {
  type: 'url';
  url: string;
}

/** A file uploaded through the Files API (beta). */
export interface AnthropicFileSource {
  type: 'file';
  file_id: string;
}

/** Plain text document (`media_type: 'text/plain'`). */
export interface AnthropicPlainTextSource {
  type: 'text';
  media_type: 'text/plain';
  data: string;
}

/** A document made of content blocks. */
export interface AnthropicContentSource {
  type: 'content';
  content: string | Array<AnthropicTextBlock | AnthropicImageBlock>;
}

/** Images: base64 media type must be `image/jpeg`, `image/png`, `image/gif` or `image/webp`. */
export interface AnthropicImageBlock {
  type: 'image';
  source: AnthropicBase64Source | AnthropicUrlSource | AnthropicFileSource;
  cache_control?: AnthropicCacheControl;
}

/** Documents: base64 sources must be PDFs (`application/pdf`). */
export interface AnthropicDocumentBlock {
  type: 'document';
  source:
    | AnthropicBase64Source
    | AnthropicUrlSource
    | AnthropicFileSource
    | AnthropicPlainTextSource
    | AnthropicContentSource;
  title?: string;
  context?: string;
  citations?: { enabled?: boolean };
  cache_control?: AnthropicCacheControl;
}

/** A tool call; `input` is the parsed arguments object. */
export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  cache_control?: AnthropicCacheControl;
}

/** A tool result; lives in a user message. Its content may hold images and documents. */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content?: string | Array<AnthropicTextBlock | AnthropicImageBlock | AnthropicDocumentBlock>;
  is_error?: boolean;
  cache_control?: AnthropicCacheControl;
}

/** Extended-thinking block; `signature` must be sent back unchanged. */
export interface AnthropicThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
}

export interface AnthropicRedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
}

/**
 * A summary the API wrote in place of earlier turns (server-side compaction, beta). Send it
 * back unchanged: the API then reads the summary instead of what came before it.
 */
export interface AnthropicCompactionBlock {
  type: 'compaction';
  content: string;
  cache_control?: AnthropicCacheControl;
}

/** Any content block of a request message. */
export type AnthropicContentBlock =
  | AnthropicTextBlock
  | AnthropicImageBlock
  | AnthropicDocumentBlock
  | AnthropicToolUseBlock
  | AnthropicToolResultBlock
  | AnthropicThinkingBlock
  | AnthropicRedactedThinkingBlock
  | AnthropicCompactionBlock;

/** One message of `messages`; there is no system role (system is a top-level parameter). */
export interface AnthropicMessageParam {
  role: 'user' | 'assistant';
  content: string | AnthropicContentBlock[];
}

/** A client tool in `tools`. */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: { type: 'object'; properties?: unknown; required?: string[]; [key: string]: unknown };
  /** Loaded only when the tool-search server tool finds it. */
  defer_loading?: boolean;
  cache_control?: AnthropicCacheControl;
}
