import { ATTEMPT_SUPERSEDED, refuseSupersededAttempt } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunRecords.recordProgress`. */
export const recordProgressScript = new LuaScript(
  'record-progress-1',
  1,
  `--[[
  Stores the latest progress a run reported (reportProgress) on its record, unless the run
  ended or a newer attempt owns it.

  Input:
    KEYS[1] record   hash of the run record
    ARGV[1] progress JSON
    ARGV[2] attempt token ('' = not fenced)

  Output:
    1   stored
    0   no record, or the run already ended; nothing written
    ${ATTEMPT_SUPERSEDED} a newer attempt owns the run; nothing written
]]
${refuseSupersededAttempt('KEYS[1]', 'ARGV[2]')}
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'succeeded' or status == 'failed' or status == 'cancelled' then return 0 end
redis.call('HSET', KEYS[1], 'progress', ARGV[1])
return 1
`,
);
