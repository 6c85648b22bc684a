import type { z } from 'zod';
import type { ConfigSchema, ConfigSettings, ConfigValues } from './config-setting.js';
import { InvalidConfigError } from './invalid-config-error.js';

/** Values given in code, which win over the environment; `undefined` means not given. */
export type SettingOverrides<S extends ConfigSettings> = {
  [K in keyof S]?: z.infer<S[K]['rule']['schema']> | undefined;
};

/**
 * Resolves every field of `settings`: an override wins, else the environment variable, else the
 * default; then the whole candidate goes through `schema`, so options and variables meet the
 * same rules. A variable that is set but empty (or blank) is an error, never the default: it is
 * what `${VAR:-}` in a compose file or a missing secret gives, and silently falling back (to the
 * `flotilla` prefix, or to no API token) would hide it. Only variables that are used are read,
 * so an override hides a bad variable.
 * @throws InvalidConfigError naming the variable (and the option, for a value given in code) when a value breaks its rule, or the variable when it is set but empty
 */
export function resolveSettings<S extends ConfigSettings>(
  settings: S,
  schema: ConfigSchema<S>,
  overrides: SettingOverrides<S>,
  env: Readonly<Record<string, string | undefined>>,
): ConfigValues<S> {
  const candidate: Record<string, unknown> = {};
  const given: Record<string, { text: string; option?: string }> = {};
  for (const [key, field] of Object.entries(settings)) {
    const override = overrides[key];
    const text = env[field.env]?.trim();
    if (override !== undefined) {
      candidate[key] = override;
      given[key] = { text: JSON.stringify(override) ?? String(override), option: key };
    } else if (text === '') {
      throw new InvalidConfigError(
        field.env,
        env[field.env] ?? '',
        'a value (it is set but empty; unset it to use the default)',
      );
    } else if (text !== undefined) {
      candidate[key] = field.rule.fromText(text);
      given[key] = { text };
    } else {
      candidate[key] = field.fallback;
    }
  }
  const parsed = schema.safeParse(candidate);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const key = String(issue?.path[0]);
  const field = settings[key];
  if (issue === undefined || field === undefined) throw parsed.error;
  // No source: the default breaks the rule, i.e. the variable is required and unset.
  const source = given[key] ?? { text: '' };
  throw new InvalidConfigError(
    field.env,
    field.secret ? '(hidden)' : source.text,
    issue.message,
    source.option,
  );
}
