/** A policy needed a model but neither the agent nor any ancestor agent has one. */
export class ModelNotFoundError extends Error {
  override readonly name = 'ModelNotFoundError';
  readonly agentId: string;

  constructor(agentId: string) {
    super(
      `Agent "${agentId}" has no model: pass createAgent({ model }) to it or to a parent agent ` +
        '(a ModelAdapter, or a model id registered in the worker / runAgent `models`).',
    );
    this.agentId = agentId;
  }

  static is(error: unknown): error is ModelNotFoundError {
    return error instanceof Error && error.name === 'ModelNotFoundError';
  }
}
