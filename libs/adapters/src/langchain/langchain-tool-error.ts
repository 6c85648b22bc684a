/**
 * Thrown by a LangChain tool's handler when the LangChain tool fails (its own error, or
 * LangChain's schema check). The agent's tool loop shows the message to the model; `cause`
 * holds the original error.
 */
export class LangChainToolError extends Error {
  override readonly name = 'LangChainToolError';
  /** The LangChain tool's name. */
  readonly toolName: string;

  constructor(toolName: string, cause: unknown) {
    super(`LangChain tool "${toolName}" failed: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.toolName = toolName;
  }

  /** Recognises the error by name, so it also works after crossing a process boundary. */
  static is(error: unknown): error is LangChainToolError {
    return error instanceof Error && error.name === 'LangChainToolError';
  }
}
