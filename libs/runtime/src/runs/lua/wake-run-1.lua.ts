import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunRecords.addWake`. */
export const wakeRunScript = new LuaScript(
  'wake-run-1',
  1,
  `--[[
  Something a parked run waits for arrived (worker/park-until-woken.ts): its wake counter goes
  up, so a worker parking the run at this moment sees it and replays instead of sleeping on.
  Runs that ended (or have no record) are left alone.

  Input:
    KEYS[1] record   hash of the run record

  Output:
    the new wake count, or 0 when the run ended or has no record
]]
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'succeeded' or status == 'failed' or status == 'cancelled' then return 0 end
return redis.call('HINCRBY', KEYS[1], 'wakes', 1)
`,
);
