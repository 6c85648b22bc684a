import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunRecords.park`. */
export const parkRunScript = new LuaScript(
  'park-run-1',
  1,
  `--[[
  A worker parks a run at the waiting gate instead of executing it: the record says what it
  waits for and is queued again (start-run-4 clears waitingFor when it runs). A run that ended
  meanwhile is left as it is.

  Input:
    KEYS[1] record   hash of the run record
    ARGV[1] waitingFor JSON: { kind, detail }

  Output:
    { 1, agentId }  parked (the agent id, for the count of waiting runs: gate/waiting-runs.ts)
    0  the run already ended (or has no record); nothing written
]]
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'succeeded' or status == 'failed' or status == 'cancelled' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'queued', 'waitingFor', ARGV[1])
return { 1, redis.call('HGET', KEYS[1], 'agentId') or '' }
`,
);
