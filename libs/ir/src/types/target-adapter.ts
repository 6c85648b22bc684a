import type { Message } from './message.js';
import type { ToolDefinition } from './tool-definition.js';

/** The built-in targets, each with a strictly typed payload. */
export type BuiltinTargetProvider = 'openai' | 'anthropic' | 'gemini' | 'openai-responses';
/** A built-in target or any name registered in the adapter registry. */
export type TargetProvider = BuiltinTargetProvider | (string & {});

/**
 * A feature the target cannot carry and degraded instead (stripped thinking, a prefill turned
 * into an instruction …). Targets never drop information silently: they report it here.
 */
export interface CompileWarning {
  /** Stable kebab-case code, e.g. `redacted-thinking-dropped`. */
  code: string;
  message: string;
  /** Index in the compiled message list, when the warning is about one message. */
  messageIndex?: number;
}

/** What surrounds a compile: tools to convert, and where degradations are reported. */
export interface CompileContext {
  tools?: ToolDefinition[];
  /** Receives each degradation; when absent, the adapter logs it with `console.warn`. */
  onWarning?: (warning: CompileWarning) => void;
}

export interface CompileMeta {
  warnings: CompileWarning[];
  [key: string]: unknown;
}

/** The loose shape every payload fits; built-in targets have stricter payload types. */
export interface TargetPayload {
  messages?: unknown[];
  tools?: unknown[];
  meta?: CompileMeta;
  [key: string]: unknown;
}

/** Turns IR into one provider's request payload. Pure: no I/O. */
export interface ITargetAdapter<Payload extends TargetPayload = TargetPayload> {
  compile(messages: Message[], context?: CompileContext): Payload;
}
