import { z } from 'zod';
import type { ConfigRule } from './config-rules.js';

/** One configuration field: its environment variable, its rule and its default. */
export interface ConfigSetting<T> {
  /** The environment variable, e.g. `FLOTILLA_WORKER_CONCURRENCY`. */
  readonly env: string;
  readonly rule: ConfigRule<T>;
  /** The value when neither an option nor the variable gives one. */
  readonly fallback: T;
  /** A secret (a token): errors show `(hidden)` instead of the value. */
  readonly secret: boolean;
}

/** A table of settings, one per configuration field. */
export type ConfigSettings = Record<string, ConfigSetting<unknown>>;

/** The zod object schema of a table of settings: each field checked by its rule's schema. */
export type ConfigSchema<S extends ConfigSettings> = z.ZodObject<{ [K in keyof S]: S[K]['rule']['schema'] }>;

/** The values a table of settings resolves to. */
export type ConfigValues<S extends ConfigSettings> = z.infer<ConfigSchema<S>>;

/** Declares a field: `setting('FLOTILLA_QUEUE', keyName, 'agents')`. */
export function setting<T>(
  env: string,
  rule: ConfigRule<T>,
  fallback: NoInfer<T>,
  options: { secret?: boolean } = {},
): ConfigSetting<T> {
  return { env, rule, fallback, secret: options.secret ?? false };
}

/** The zod schema of a whole configuration: one field per setting, checked by its rule. */
export function configSchema<S extends ConfigSettings>(settings: S): ConfigSchema<S> {
  const shape = Object.fromEntries(Object.entries(settings).map(([key, field]) => [key, field.rule.schema]));
  return z.object(shape) as ConfigSchema<S>;
}
