/**
 * An agent module named in `FLOTILLA_AGENTS` could not be loaded or does not export what the
 * worker needs. The worker does not start.
 */
export class AgentModuleError extends Error {
  override readonly name = 'AgentModuleError';
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

  static is(error: unknown): error is AgentModuleError {
    return error instanceof Error && error.name === 'AgentModuleError';
  }
}
