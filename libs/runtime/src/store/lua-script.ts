import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * One Lua script, run with EVALSHA and loaded with EVAL on a `NOSCRIPT` miss (after a Redis
 * restart or on a fresh server). `keyCount` is the number of KEYS, which the script file name
 * carries too (`append-conversation-9`), or `'any'` for a script that takes a list of keys of one
 * hash slot (`index-runs-1`: its caller bounds the list).
 */
export class LuaScript {
  readonly name: string;
  readonly keyCount: number | 'any';
  readonly source: string;
  readonly sha1: string;

  constructor(name: string, keyCount: number | 'any', source: string) {
    this.name = name;
    this.keyCount = keyCount;
    this.source = source;
    this.sha1 = createHash('sha1').update(source).digest('hex');
  }

  /**
   * Runs the script. Throws when `keys.length` is not a fixed `keyCount` (a bug in the argument
   * builder), or with Redis' error when the script fails.
   */
  run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return this.#run(redis, keys, args, false);
  }

  /** {@link run}, with every string of the reply as a Buffer (binary list entries). */
  runBuffer(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return this.#run(redis, keys, args, true);
  }

  async #run(
    redis: Redis,
    keys: readonly string[],
    args: readonly (string | number)[],
    buffers: boolean,
  ): Promise<unknown> {
    if (this.keyCount !== 'any' && keys.length !== this.keyCount) {
      throw new Error(`Lua script ${this.name} takes ${this.keyCount} keys, got ${keys.length}`);
    }
    try {
      return await (buffers
        ? redis.callBuffer('evalsha', this.sha1, keys.length, ...keys, ...args)
        : redis.evalsha(this.sha1, keys.length, ...keys, ...args));
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return buffers
        ? redis.callBuffer('eval', this.source, keys.length, ...keys, ...args)
        : redis.eval(this.source, keys.length, ...keys, ...args);
    }
  }
}
