import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunRecords.clearAttemptTrace`. */
export const clearAttemptTraceScript = new LuaScript(
  'clear-attempt-trace-1',
  1,
  `--[[
  An attempt's run span ended (it was exported): its trace mark leaves the record, unless a
  newer attempt's mark replaced it already (swap-attempt-trace-1).

  Input:
    KEYS[1] record   hash of the run record
    ARGV[1] the attempt's trace mark JSON

  Output:
    1  cleared
    0  the record holds another mark, or none; nothing written
]]
if redis.call('HGET', KEYS[1], 'attemptTrace') ~= ARGV[1] then return 0 end
redis.call('HDEL', KEYS[1], 'attemptTrace')
return 1
`,
);
