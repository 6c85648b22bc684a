/**
 * `LuaScript`: EVALSHA, with EVAL (which loads the script) when the server does not know it yet;
 * every failure is a rejection, never a synchronous throw.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../../../../test/support/redis.js';
import { LuaScript } from './lua-script.js';

const fixture = useRedis(import.meta.filename);

/** A script no server has seen (its source is unique), so its first EVALSHA misses. */
const unseenScript = (body: string, keyCount: number | 'any' = 1) =>
  new LuaScript('test-script-1', keyCount, `-- ${randomUUID()}\n${body}`);

describe('LuaScript', () => {
  it('runs a script the server does not know through EVAL, then by its sha', async () => {
    const script = unseenScript("redis.call('SET', KEYS[1], ARGV[1]) return ARGV[1] .. '!'");
    const key = `${fixture.prefix}:lua:${randomUUID()}`;
    expect(await fixture.redis.script('EXISTS', script.sha1)).toEqual([0]);
    expect(await script.run(fixture.redis, [key], ['a'])).toBe('a!');
    expect(await fixture.redis.script('EXISTS', script.sha1)).toEqual([1]);
    expect(await script.run(fixture.redis, [key], [2])).toBe('2!');
    expect(await fixture.redis.get(key)).toBe('2');
  });

  it('returns the reply as Buffers from runBuffer, loaded or not', async () => {
    const script = unseenScript('return {ARGV[1], KEYS[1]}');
    const first = await script.runBuffer(fixture.redis, ['k'], ['v']);
    expect(first).toEqual([Buffer.from('v'), Buffer.from('k')]);
    expect(await script.runBuffer(fixture.redis, ['k'], ['w'])).toEqual([Buffer.from('w'), Buffer.from('k')]);
  });

  it("sends ASCII and other text intact, and keys under the connection's keyPrefix", async () => {
    const script = unseenScript(
      "redis.call('SET', KEYS[1], ARGV[1] .. ARGV[2]) return {KEYS[1], ARGV[1], ARGV[2]}",
    );
    const prefix = `${fixture.prefix}:lua:${randomUUID()}:`;
    const prefixed = fixture.redis.duplicate({ keyPrefix: prefix });
    try {
      const texts = ['{"text":"plain"}', '{"text":"héllo → 😀"}'];
      expect(await script.run(prefixed, ['k'], texts)).toEqual([`${prefix}k`, ...texts]);
      expect(await fixture.redis.get(`${prefix}k`)).toBe(texts.join(''));
    } finally {
      prefixed.disconnect();
    }
  });

  it("rejects with the script's error, and with a wrong key count before sending anything", async () => {
    const failing = unseenScript("return redis.error_reply('ERR nope')");
    await expect(failing.run(fixture.redis, ['k'], [])).rejects.toThrow('nope');
    await expect(failing.run(fixture.redis, ['k'], [])).rejects.toThrow('nope');
    const script = unseenScript('return 1', 2);
    const call = script.run(fixture.redis, ['only one'], []);
    expect(call).toBeInstanceOf(Promise);
    await expect(call).rejects.toThrow('takes 2 keys, got 1');
    expect(await fixture.redis.script('EXISTS', script.sha1)).toEqual([0]);
  });
});
