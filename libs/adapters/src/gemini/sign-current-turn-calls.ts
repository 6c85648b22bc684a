import type { CompileWarning, GeminiContent } from '@flotilla/ir';
import { reportWarning } from '../shared/report-warning.js';

/**
 * The value Gemini documents for a function call it did not produce (a conversation moved from
 * another provider): it skips the signature check of that call.
 */
export const SKIP_THOUGHT_SIGNATURE = 'skip_thought_signature_validator';

/**
 * Gemini 3 rejects a request whose current turn (everything after the last user content with
 * text) has a step whose first `functionCall` part carries no `thoughtSignature`. Calls made by
 * another provider have none, so a conversation moved to Gemini in the middle of a tool loop
 * would fail: such a part gets {@link SKIP_THOUGHT_SIGNATURE}, reported once per request as
 * `thought-signature-skipped`. Signed calls and earlier turns are left as they are. Mutates
 * `contents`.
 */
export function signCurrentTurnCalls(
  contents: GeminiContent[],
  onWarning: ((warning: CompileWarning) => void) | undefined,
): void {
  const turnStart = contents.findLastIndex(
    (content) => content.role === 'user' && (content.parts ?? []).some((part) => part.text !== undefined),
  );
  let skipped = 0;
  for (const content of contents.slice(turnStart + 1)) {
    if (content.role !== 'model') continue;
    const firstCall = (content.parts ?? []).find((part) => part.functionCall);
    if (!firstCall || firstCall.thoughtSignature !== undefined) continue;
    firstCall.thoughtSignature = SKIP_THOUGHT_SIGNATURE;
    skipped++;
  }
  if (skipped === 0) return;
  reportWarning(onWarning, {
    code: 'thought-signature-skipped',
    message: `gemini adapter: ${skipped} function call step(s) of the current turn had no thought signature (made by another provider); sent with "${SKIP_THOUGHT_SIGNATURE}" so Gemini 3 accepts them without their reasoning`,
  });
}
