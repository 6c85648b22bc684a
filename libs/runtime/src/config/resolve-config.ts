import { type FlotillaConfig, flotillaConfigSchema, flotillaSettings } from './flotilla-config.js';
import { resolveSettings, type SettingOverrides } from './resolve-settings.js';

/** Values that win over the environment (e.g. `createWorker` options). */
export type ConfigOverrides = SettingOverrides<typeof flotillaSettings>;

/**
 * Resolves the complete {@link FlotillaConfig} once: an override wins, else the environment
 * variable, else the default. Only variables that are used are read, so an override hides a
 * bad variable; overrides meet the same rules as variables.
 * @throws InvalidConfigError naming the variable when a value breaks its rule
 */
export function resolveConfig(
  overrides: ConfigOverrides = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): FlotillaConfig {
  return resolveSettings(flotillaSettings, flotillaConfigSchema, overrides, env);
}
