import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunRecords.pin`. */
export const pinRunScript = new LuaScript(
  'pin-run-1',
  1,
  `--[[
  Pins a root run to a build (worker versioning): the first worker that takes the run sets it,
  later ones read it. A run without a record, or one that ended, is not pinned.

  Input:
    KEYS[1] record   hash of the run record
    ARGV[1] build id of the worker taking the run

  Output:
    the build the run is pinned to, or '' (no record, or the run ended)
]]
local status = redis.call('HGET', KEYS[1], 'status')
if not status or status == 'succeeded' or status == 'failed' or status == 'cancelled' then
  return ''
end
redis.call('HSETNX', KEYS[1], 'pinnedBuild', ARGV[1])
return redis.call('HGET', KEYS[1], 'pinnedBuild')
`,
);
