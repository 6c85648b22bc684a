import type { CompileWarning } from '@flotilla/ir';

/**
 * Reports a degradation the adapter itself made (beyond the IR target's own warnings) the way
 * the targets do: to `onWarning`, else `console.warn`.
 */
export function reportWarning(
  onWarning: ((warning: CompileWarning) => void) | undefined,
  warning: CompileWarning,
): void {
  if (onWarning) onWarning(warning);
  else console.warn(`[@flotilla/adapters] ${warning.message} (${warning.code})`);
}
