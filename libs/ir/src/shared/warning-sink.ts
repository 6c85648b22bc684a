import type { CompileContext, CompileWarning } from '../types/target-adapter.js';

/**
 * Collects the {@link CompileWarning}s of one compile call: each is forwarded at once to
 * `context.onWarning` (or `console.warn` when the caller gave none) and kept for
 * `payload.meta.warnings`. A `once` code is reported at most once per compile.
 */
export class WarningSink {
  readonly warnings: CompileWarning[] = [];
  readonly #target: string;
  readonly #onWarning: ((warning: CompileWarning) => void) | undefined;
  readonly #seenOnce = new Set<string>();

  constructor(target: string, context?: CompileContext) {
    this.#target = target;
    this.#onWarning = context?.onWarning;
  }

  /** Reports a degradation; `messageIndex` is the index in the messages given to `compile`. */
  warn(code: string, message: string, messageIndex?: number): void {
    const warning: CompileWarning = { code, message: `${this.#target} target: ${message}` };
    if (messageIndex !== undefined) warning.messageIndex = messageIndex;
    this.warnings.push(warning);
    if (this.#onWarning) this.#onWarning(warning);
    else console.warn(`[@flotilla/ir] ${warning.message} (${code})`);
  }

  /** Like {@link WarningSink.warn}, but only the first call with this `code` is reported. */
  warnOnce(code: string, message: string, messageIndex?: number): void {
    if (this.#seenOnce.has(code)) return;
    this.#seenOnce.add(code);
    this.warn(code, message, messageIndex);
  }
}
