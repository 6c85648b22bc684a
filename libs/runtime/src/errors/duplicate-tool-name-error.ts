/** Two tools with the same name were equipped in one generation (or given to one turn). */
export class DuplicateToolNameError extends Error {
  override readonly name = 'DuplicateToolNameError';
  readonly toolName: string;
  /** Where it was detected: `equipTool`, `executeTurn` or `executeTools`. */
  readonly site: string;

  constructor(toolName: string, site: string) {
    super(
      `Duplicate tool name "${toolName}" (detected in ${site}); tool names must be unique. Rename one of the tools.`,
    );
    this.toolName = toolName;
    this.site = site;
  }

  static is(error: unknown): error is DuplicateToolNameError {
    return error instanceof Error && error.name === 'DuplicateToolNameError';
  }
}
