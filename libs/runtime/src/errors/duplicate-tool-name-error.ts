import { errorGuard, FlotillaError } from '@flotilla/ir';

/** Two tools with the same name were equipped in one generation (or given to one turn). */
export class DuplicateToolNameError extends FlotillaError {
  static override readonly errorName = 'DuplicateToolNameError';
  static override readonly is = errorGuard(this);
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
}
