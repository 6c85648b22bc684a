import { ATTEMPT_SUPERSEDED, refuseSupersededAttempt } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunRecords.markWaiting`. */
export const markWaitingScript = new LuaScript(
  'mark-waiting-1',
  1,
  `--[[
  A running run waits inside its execution (a model call waiting for its provider's fleet-wide
  budget): its record says what it waits for while it does, and stops saying it after. The status
  stays running. Fenced: a superseded attempt writes nothing.

  Input:
    KEYS[1] record   hash of the run record
    ARGV[1] waitingFor JSON: { kind, detail }, or '' to clear it
    ARGV[2] attempt token

  Output:
    {1, agentId}  written (the agent id, for the count of waiting runs)
    0  the run is not running; nothing written
    ${ATTEMPT_SUPERSEDED}  a newer attempt owns the run; nothing written
]]
${refuseSupersededAttempt('KEYS[1]', 'ARGV[2]')}
if redis.call('HGET', KEYS[1], 'status') ~= 'running' then return 0 end
if ARGV[1] == '' then redis.call('HDEL', KEYS[1], 'waitingFor')
else redis.call('HSET', KEYS[1], 'waitingFor', ARGV[1]) end
return {1, redis.call('HGET', KEYS[1], 'agentId') or ''}
`,
);
