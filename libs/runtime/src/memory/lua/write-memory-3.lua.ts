import { ATTEMPT_SUPERSEDED, refuseSupersededAttempt } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunMemoryStore`. */
export const writeMemoryScript = new LuaScript(
  'write-memory-3',
  3,
  `--[[
  One write to the memory of an agent invocation of a run, unless the writing attempt was
  superseded (attempt-fence.lua.ts). The index set lists the callPaths that have memory, so the
  run's memory can be deleted when it ends.

  Input:
    KEYS[1] record    hash of the run record
    KEYS[2] memory    the invocation's memory hash
    KEYS[3] index     the run's memory index set
    ARGV[1] attempt token ('' = not fenced)
    ARGV[2] set | unset | clear
    ARGV[3] callPath
    ARGV[4] memory key (set, unset)
    ARGV[5] value JSON (set)

  Output:
    1  written
    ${ATTEMPT_SUPERSEDED} a newer attempt owns the run; nothing written
]]
${refuseSupersededAttempt('KEYS[1]', 'ARGV[1]')}
if ARGV[2] == 'set' then
  redis.call('HSET', KEYS[2], ARGV[4], ARGV[5])
  redis.call('SADD', KEYS[3], ARGV[3])
elseif ARGV[2] == 'unset' then
  redis.call('HDEL', KEYS[2], ARGV[4])
else
  redis.call('DEL', KEYS[2])
  redis.call('SREM', KEYS[3], ARGV[3])
end
return 1
`,
);
