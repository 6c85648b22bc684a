import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * Thrown by a LangChain tool's handler when the LangChain tool fails (its own error, or
 * LangChain's schema check). The agent's tool loop shows the message to the model; `cause`
 * holds the original error.
 */
export class LangChainToolError extends FlotillaError {
  static override readonly errorName = 'LangChainToolError';
  static override readonly is = errorGuard(this);
  /** The LangChain tool's name. */
  readonly toolName: string;

  constructor(toolName: string, cause: unknown) {
    super(`LangChain tool "${toolName}" failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.toolName = toolName;
  }
}
