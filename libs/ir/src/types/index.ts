export type { Attachment, AttachmentSource, ImageDetail, ResolvedAttachment } from './attachment.js';
export { IMAGE_DETAILS, parseDataUrl, resolveAttachment, toDataUrl } from './attachment.js';
export type {
  HistoryMessage,
  Message,
  ParsedMessages,
  RedactedThinking,
  Role,
  ThinkingContent,
  ToolCall,
} from './message.js';
export type {
  BuiltinTargetProvider,
  CompileContext,
  CompileMeta,
  CompileWarning,
  ITargetAdapter,
  TargetPayload,
} from './target-adapter.js';
export type { ToolDefinition } from './tool-definition.js';
export type { FinishReason, TokenUsage } from './usage.js';
export { addUsage, emptyUsage } from './usage.js';
