import type { ModelAdapter } from '../model/model-adapter.js';

/**
 * The id under which a child run on another worker finds `model` in its `models`: the key
 * `model` is registered under, else its own `id` when an adapter is registered by that id;
 * `undefined` when the model cannot be named (an adapter passed inline and not registered).
 */
export function modelIdOf(
  model: ModelAdapter | undefined,
  models: ReadonlyMap<string, ModelAdapter>,
): string | undefined {
  if (model === undefined) return undefined;
  for (const [id, registered] of models) if (registered === model) return id;
  return models.has(model.id) ? model.id : undefined;
}
