import {
  type ConfigValues,
  configRules,
  configSchema,
  type FlotillaConfig,
  InvalidConfigError,
  resolveConfig,
  resolveSettings,
  setting,
  tenantSchema,
} from '@flotilla/runtime/client';
import { z } from 'zod';

/** The shortest API token accepted (`FLOTILLA_API_TOKEN`, each of `FLOTILLA_API_TOKENS`). */
export const MIN_API_TOKEN_LENGTH = 16;
const TOKEN_RULE = `at least ${MIN_API_TOKEN_LENGTH} characters (e.g. \`openssl rand -hex 24\`)`;

/** One named API token: who calls (`name`, in logs) and, when set, the only tenant it reaches. */
export interface ApiToken {
  name: string;
  token: string;
  /** The tenant whose runs and conversations this token sees; unset: the runs of no tenant. */
  tenant?: string | undefined;
}

const apiTokenSchema = z.strictObject(
  {
    name: z
      .string({ error: 'each token needs a `name`: 1 to 64 letters, digits, `_`, `.` or `-`' })
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, {
        error: 'a token `name` is 1 to 64 letters, digits, `_`, `.` or `-`',
      }),
    token: z.string({ error: `each token needs a \`token\` of ${TOKEN_RULE}` }).min(MIN_API_TOKEN_LENGTH, {
      error: `a \`token\` is ${TOKEN_RULE}`,
    }),
    tenant: tenantSchema.optional(),
  },
  { error: 'each entry is an object { "name", "token", "tenant"? }' },
);

/** `FLOTILLA_API_TOKENS`: a JSON array of named tokens, names and tokens unique. */
const apiTokensSchema = z
  .array(apiTokenSchema, { error: 'a JSON array of { "name", "token", "tenant"? }' })
  .max(1000, { error: 'at most 1000 tokens' })
  .refine((tokens) => new Set(tokens.map((entry) => entry.name)).size === tokens.length, {
    error: 'token names must be unique',
  })
  .refine((tokens) => new Set(tokens.map((entry) => entry.token)).size === tokens.length, {
    error: 'tokens must be unique (one caller, one token)',
  });

/** The API's own settings: environment variable, rule, default (as the runtime's `flotillaSettings`). */
export const schedulerSettings = {
  /** `FLOTILLA_SCHEDULER_PORT`; 0 picks a free port. @default 8080 */
  port: setting('FLOTILLA_SCHEDULER_PORT', configRules.wholeNumber({ max: 65_535 }), 8080),
  /** `FLOTILLA_SCHEDULER_HOST`: interface to listen on. @default '0.0.0.0' */
  host: setting('FLOTILLA_SCHEDULER_HOST', configRules.anyText, '0.0.0.0'),
  /**
   * `FLOTILLA_API_TOKEN`: a bearer token with no tenant (it sees the runs of no tenant; its
   * principal is named `api-token`). @default unset: with no `FLOTILLA_API_TOKENS` either, only
   * loopback requests (from this machine) are accepted
   */
  apiToken: setting(
    'FLOTILLA_API_TOKEN',
    configRules.secret({ minLength: MIN_API_TOKEN_LENGTH, expected: TOKEN_RULE }),
    undefined,
    { secret: true },
  ),
  /**
   * `FLOTILLA_API_TOKENS`: named bearer tokens, a JSON array of `{ "name", "token", "tenant"? }`
   * (names and tokens unique, tokens of 16 characters or more). A token with a `tenant` sees only
   * that tenant's runs and conversations. @default none
   */
  apiTokens: setting('FLOTILLA_API_TOKENS', configRules.json<ApiToken[]>(apiTokensSchema), [], {
    secret: true,
  }),
  /**
   * `FLOTILLA_API_BODY_TIMEOUT_MS`: a request body must arrive within this many ms, else 408
   * (a slow or stalled sender does not hold a connection). @default 10000
   */
  bodyTimeoutMs: setting('FLOTILLA_API_BODY_TIMEOUT_MS', configRules.wholeNumber({ min: 100 }), 10_000),
  /**
   * `FLOTILLA_API_MAX_STREAMS`: open `/runs/:id/events` streams per principal (token), else 429.
   * @default 100
   */
  maxStreams: setting('FLOTILLA_API_MAX_STREAMS', configRules.wholeNumber({ min: 1 }), 100),
};

const schedulerSchema = configSchema(schedulerSettings);

/**
 * What the scheduler process runs with, resolved once at start: the runtime configuration
 * (`REDIS_URL`, `FLOTILLA_PREFIX`, `FLOTILLA_QUEUE`, `LOG_LEVEL` …) plus the API's own
 * variables ({@link schedulerSettings}).
 */
export type SchedulerConfig = ConfigValues<typeof schedulerSettings> & { runtime: FlotillaConfig };

/** The principal of `FLOTILLA_API_TOKEN` (a token with no tenant). */
export const SINGLE_TOKEN_NAME = 'api-token';

/**
 * The scheduler's `FLOTILLA_REQUEST_TIMEOUT_MS` when it is not set: shorter than the runtime's
 * 10 s, so during a Redis outage a request fails with 503 in 2 s and its caller retries, instead
 * of holding a connection through the outage.
 */
export const SCHEDULER_REQUEST_TIMEOUT_MS = 2000;

/**
 * Resolves {@link SchedulerConfig} from `env`.
 * @throws InvalidConfigError naming the variable when a value does not parse, or when
 *   `FLOTILLA_API_TOKEN` repeats a token (or the name `api-token`) of `FLOTILLA_API_TOKENS`
 */
export function resolveSchedulerConfig(
  env: Readonly<Record<string, string | undefined>> = process.env,
): SchedulerConfig {
  const requestTimeoutMs =
    env.FLOTILLA_REQUEST_TIMEOUT_MS === undefined ? SCHEDULER_REQUEST_TIMEOUT_MS : undefined;
  const config = {
    runtime: resolveConfig({ requestTimeoutMs }, env),
    ...resolveSettings(schedulerSettings, schedulerSchema, {}, env),
  };
  const { apiToken, apiTokens } = config;
  if (
    apiToken !== undefined &&
    apiTokens.some((entry) => entry.token === apiToken || entry.name === SINGLE_TOKEN_NAME)
  ) {
    throw new InvalidConfigError(
      'FLOTILLA_API_TOKENS',
      '(hidden)',
      `no token equal to FLOTILLA_API_TOKEN and no name "${SINGLE_TOKEN_NAME}" (that is FLOTILLA_API_TOKEN's)`,
    );
  }
  return config;
}

/** Every bearer token the API accepts: the named ones, and `FLOTILLA_API_TOKEN` as `api-token`. */
export function acceptedTokens(config: Pick<SchedulerConfig, 'apiToken' | 'apiTokens'>): ApiToken[] {
  const single = config.apiToken === undefined ? [] : [{ name: SINGLE_TOKEN_NAME, token: config.apiToken }];
  return [...config.apiTokens, ...single];
}
