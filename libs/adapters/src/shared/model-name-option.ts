/**
 * Adapters name their model with `model`; the seed API's adapters call it `modelId`. Both are
 * accepted (one is enough; both must then agree), so code migrating from the seed keeps its
 * adapter options as they are.
 */
import { errorGuard, FlotillaError } from '@flotilla/ir';

/** `T` with its model named by `model`, or by the alias `modelId`. */
export type WithModelAlias<T extends { model: string }> = Omit<T, 'model'> &
  ({ model: string; modelId?: string } | { modelId: string; model?: string });

/** An adapter was created with options that name no model, or two different ones. */
export class InvalidAdapterOptionsError extends FlotillaError {
  static override readonly errorName = 'InvalidAdapterOptionsError';
  static override readonly is = errorGuard(this);
  readonly provider: string;
  readonly option: string;

  constructor(provider: string, option: string, reason: string) {
    super(`Invalid ${provider} adapter options: ${option} ${reason}.`);
    this.provider = provider;
    this.option = option;
  }
}

/**
 * The options with `model` set from `model` or `modelId`.
 * @throws InvalidAdapterOptionsError when neither names a model, or both do and differ
 */
export function withModelName<T extends { model: string }>(options: WithModelAlias<T>, provider: string): T {
  const given = options as { model?: unknown; modelId?: unknown };
  const { model, modelId } = given;
  for (const [option, value] of [
    ['model', model],
    ['modelId', modelId],
  ] as const) {
    if (value !== undefined && (typeof value !== 'string' || value.trim() === '')) {
      throw new InvalidAdapterOptionsError(
        provider,
        option,
        'must be a non-empty string (the model, e.g. its API name)',
      );
    }
  }
  if (model === undefined && modelId === undefined) {
    throw new InvalidAdapterOptionsError(
      provider,
      'model',
      'is required: pass { model } (or its alias { modelId })',
    );
  }
  if (model !== undefined && modelId !== undefined && model !== modelId) {
    throw new InvalidAdapterOptionsError(
      provider,
      'modelId',
      `("${String(modelId)}") differs from model ("${String(model)}"): modelId is an alias of model, pass one of them`,
    );
  }
  return { ...options, model: (model ?? modelId) as string } as unknown as T;
}
