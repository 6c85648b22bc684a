import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunRecords.markUnserved`. */
export const markUnservedScript = new LuaScript(
  'mark-unserved-1',
  1,
  `--[[
  A producer (client submit, a parent adding a child) found no live worker serving the run's
  agent: the queued record says so (waitingFor { kind 'worker' }) until a worker starts it
  (start-run-4 clears waitingFor). A run that already started, ended, or waits for something
  else is left as it is.

  Input:
    KEYS[1] record   hash of the run record
    ARGV[1] waitingFor JSON: { kind: 'worker', detail: agentId }

  Output:
    1  marked
    0  nothing written
]]
if redis.call('HGET', KEYS[1], 'status') ~= 'queued' then return 0 end
if redis.call('HEXISTS', KEYS[1], 'waitingFor') == 1 then return 0 end
redis.call('HSET', KEYS[1], 'waitingFor', ARGV[1])
return 1
`,
);
