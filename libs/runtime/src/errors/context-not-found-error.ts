import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A hook (`equipTool`, `promptAgent`, `expectScope` …) was called outside an agent run: not in
 * an agent handler, nor in anything it awaits (tool handlers, middlewares, helpers).
 */
export class ContextNotFoundError extends FlotillaError {
  static override readonly errorName = 'ContextNotFoundError';
  static override readonly is = errorGuard(this);
  /** The hook that was called, e.g. `equipTool`. */
  readonly apiName: string;

  constructor(apiName: string) {
    super(
      `${apiName} may only be called inside an agent run. Call it from an agent handler (or from ` +
        'a tool handler or helper the handler awaits), not at module top level or from a timer ' +
        'started outside the agent.',
    );
    this.apiName = apiName;
  }
}
