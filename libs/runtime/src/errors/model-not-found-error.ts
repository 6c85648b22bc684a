import { errorGuard, FlotillaError } from '@flotilla/ir';

/** A policy needed a model but neither the agent nor any ancestor agent has one. */
export class ModelNotFoundError extends FlotillaError {
  static override readonly errorName = 'ModelNotFoundError';
  static override readonly is = errorGuard(this);
  readonly agentId: string;

  constructor(agentId: string) {
    super(
      `Agent "${agentId}" has no model: pass createAgent({ model }) to it or to a parent agent ` +
        '(a ModelAdapter, or a model id registered in the worker / runAgent `models`).',
    );
    this.agentId = agentId;
  }
}
