/**
 * Test support for the target adapter suites (kept out of the package build): compiles with an
 * `onWarning` that collects instead of logging.
 */
import type { Message } from '../types/message.js';
import type {
  CompileContext,
  CompileWarning,
  ITargetAdapter,
  TargetPayload,
} from '../types/target-adapter.js';

/** What {@link compileCollectingWarnings} returns: the payload, every warning, and their codes. */
export interface CollectedCompile<Payload> {
  payload: Payload;
  warnings: CompileWarning[];
  codes: string[];
}

/** Compiles `messages` with `adapter`, collecting the warnings it reports. */
export function compileCollectingWarnings<Payload extends TargetPayload>(
  adapter: ITargetAdapter<Payload>,
  messages: Message[],
  context: CompileContext = {},
): CollectedCompile<Payload> {
  const warnings: CompileWarning[] = [];
  const payload = adapter.compile(messages, { ...context, onWarning: (warning) => warnings.push(warning) });
  return { payload, warnings, codes: warnings.map((warning) => warning.code) };
}
