import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ScriptCommand } from './script-command.js';

/**
 * One Lua script, run with EVALSHA and loaded with EVAL on a `NOSCRIPT` miss (after a Redis
 * restart or on a fresh server). `keyCount` is the number of KEYS the script takes
 * (`start-run-5`: 4), or `'any'` for a script that takes a list of keys of one hash slot
 * (`index-runs-1`, `append-conversation-10`: their callers bound the list).
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
   * Runs the script. Rejects when `keys.length` is not a fixed `keyCount` (a bug in the argument
   * builder), or with Redis' error when the script fails.
   */
  run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return this.#run(redis, keys, args, false);
  }

  /** {@link run}, with every string of the reply as a Buffer (binary list entries). */
  runBuffer(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    return this.#run(redis, keys, args, true);
  }

  /**
   * Not an async function: one promise per call (the `.catch`) instead of the async function's and
   * its await's (every promise pays the async-context hooks; scripts run several times per run).
   */
  #run(
    redis: Redis,
    keys: readonly string[],
    args: readonly (string | number)[],
    buffers: boolean,
  ): Promise<unknown> {
    if (this.keyCount !== 'any' && keys.length !== this.keyCount) {
      return Promise.reject(
        new Error(`Lua script ${this.name} takes ${this.keyCount} keys, got ${keys.length}`),
      );
    }
    const call = send(redis, 'evalsha', this.sha1, keys, args, buffers);
    return call.catch((error: unknown) => {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      // Not loaded on this server (a restart, a fresh server): EVAL runs it and loads it.
      return send(redis, 'eval', this.source, keys, args, buffers);
    });
  }
}

/**
 * Sends `name script keyCount ...keys ...args` as a {@link ScriptCommand}, with the options
 * ioredis' own `evalsha`/`callBuffer` give a command: the argument list is built once (the
 * command methods copy it twice more). On a connection with auto-pipelining the command method
 * is used, so the call still joins the tick's pipeline.
 */
function send(
  redis: Redis,
  name: 'evalsha' | 'eval',
  script: string,
  keys: readonly string[],
  args: readonly (string | number)[],
  buffers: boolean,
): Promise<unknown> {
  const { options } = redis;
  if (options.enableAutoPipelining)
    return buffers
      ? redis.callBuffer(name, script, keys.length, ...keys, ...args)
      : redis[name](script, keys.length, ...keys, ...args);
  const command = new ScriptCommand(name, [script, keys.length, ...keys, ...args], {
    replyEncoding: buffers ? null : 'utf8',
    keyPrefix: options.keyPrefix,
    errorStack: options.showFriendlyErrorStack ? new Error() : undefined,
  });
  return redis.sendCommand(command) as Promise<unknown>;
}
