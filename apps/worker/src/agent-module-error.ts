import { errorGuard, FlotillaError } from '@flotilla/runtime';

/**
 * An agent module named in `FLOTILLA_AGENTS` could not be loaded or does not export what the
 * worker needs. The worker does not start.
 */
export class AgentModuleError extends FlotillaError {
  static override readonly errorName = 'AgentModuleError';
  static override readonly is = errorGuard(this);
  /** The module as written in `FLOTILLA_AGENTS`. */
  readonly module: string;

  constructor(module: string, problem: string, options?: ErrorOptions) {
    super(
      `FLOTILLA_AGENTS: agent module "${module}" ${problem}. Each module must export \`agents\` ` +
        '(an array of createAgent agents) and may export `models` (model id → ModelAdapter).',
      options,
    );
    this.module = module;
  }
}
