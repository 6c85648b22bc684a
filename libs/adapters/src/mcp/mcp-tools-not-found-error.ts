import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * Thrown by `equipMCP` / {@link listMCPTools} when tools declared in `options.tools` are not all
 * on the server, so the model is never called with an incomplete tool set.
 */
export class MCPToolsNotFoundError extends FlotillaError {
  static override readonly errorName = 'MCPToolsNotFoundError';
  static override readonly is = errorGuard(this);
  /** Declared native names that were not found. */
  readonly missing: string[];
  /** Native names of every tool that was listed before giving up. */
  readonly found: string[];
  /** `max-items`: stopped at `maxItems` listed tools; `exhausted`: the server has no more pages. */
  readonly reason: 'max-items' | 'exhausted';

  constructor(options: {
    missing: string[];
    found: string[];
    reason: 'max-items' | 'exhausted';
    maxItems: number;
  }) {
    const where =
      options.reason === 'max-items'
        ? `within the first ${options.maxItems} tools (maxItems); raise maxItems`
        : 'on the MCP server (all pages read, or autoPaginate is false); check the names';
    super(
      `Declared MCP tools not found ${where}. Missing: ${options.missing.join(', ')}. ` +
        `Found: ${options.found.join(', ') || '(none)'}. Names in \`tools\` are the server's native names, ` +
        'without the namespace.',
    );
    this.missing = options.missing;
    this.found = options.found;
    this.reason = options.reason;
  }
}
