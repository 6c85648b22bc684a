/** The configuration both a worker and a client resolve (re-exported by `/worker` and `/client`). */

export type { ConfigRule } from '../config/config-rules.js';
export * as configRules from '../config/config-rules.js';
export {
  type ConfigSchema,
  type ConfigSetting,
  type ConfigSettings,
  type ConfigValues,
  configSchema,
  setting,
} from '../config/config-setting.js';
export {
  type FlotillaConfig,
  flotillaConfigSchema,
  flotillaSettings,
  jsonLimitsOf,
  LOG_LEVELS,
  type LogLevel,
} from '../config/flotilla-config.js';
export { InvalidConfigError } from '../config/invalid-config-error.js';
export { connectRedis, type RedisConnectionOption, redisTlsOptions } from '../config/open-redis.js';
export {
  type ClusterSeed,
  InvalidRedisUrlError,
  isClusterUrl,
  parseRedisEndpoint,
  type RedisEndpoint,
} from '../config/redis-endpoint.js';
export { type ConfigOverrides, resolveConfig } from '../config/resolve-config.js';
export { resolveSettings, type SettingOverrides } from '../config/resolve-settings.js';
export {
  DEFAULT_JSON_LIMITS,
  DEFAULT_MAX_JSON_DEPTH,
  DEFAULT_MAX_PAYLOAD_BYTES,
  type JsonLimits,
  MAX_JSON_DEPTH_CEILING,
} from '../json/json-bounds.js';
