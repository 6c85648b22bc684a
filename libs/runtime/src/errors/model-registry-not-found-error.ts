import { errorGuard, FlotillaError } from '@flotilla/ir';

/** `createAgent({ model: 'id' })` named a model id that the run's `models` map does not hold. */
export class ModelRegistryNotFoundError extends FlotillaError {
  static override readonly errorName = 'ModelRegistryNotFoundError';
  static override readonly is = errorGuard(this);
  readonly modelId: string;
  readonly agentId: string;
  /** The ids that are registered. */
  readonly availableIds: string[];

  constructor(modelId: string, agentId: string, availableIds: string[]) {
    const available = availableIds.length === 0 ? '(none)' : availableIds.map((id) => `'${id}'`).join(', ');
    super(
      `No model adapter registered for id '${modelId}' (agent: ${agentId}). Registered ids: ${available}. ` +
        'Add it to the `models` option of createWorker / runAgent.',
    );
    this.modelId = modelId;
    this.agentId = agentId;
    this.availableIds = availableIds;
  }
}
