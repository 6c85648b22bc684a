/** The configuration both a worker and a client resolve (re-exported by `/worker` and `/client`). */

export type { FlotillaConfig, LogLevel } from '../config/flotilla-config.js';
export { InvalidConfigError } from '../config/invalid-config-error.js';
export type { RedisConnectionOption } from '../config/open-redis.js';
export { type ConfigOverrides, resolveConfig } from '../config/resolve-config.js';
