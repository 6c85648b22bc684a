import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `deliverSignal` (`waits/send-signal.ts`). */
export const deliverSignalScript = new LuaScript(
  'deliver-signal-4',
  4,
  `--[[
  A signal for a run arrives: queued under its name (a signal sent before the run waits is
  kept for the wait), unless its id was seen before (idempotent sends), and the run's wake
  count goes up (worker/park-until-woken.ts). A run that ended takes no more signals.

  Input:
    KEYS[1] record    hash of the run record
    KEYS[2] ids       set of the signal ids seen
    KEYS[3] signals   list of the name's signals
    KEYS[4] names     hash of signal name -> signals taken (created with 0 so the name is known)
    ARGV[1] signal id
    ARGV[2] { id, payload } JSON
    ARGV[3] signal name
    ARGV[4] key expiry, seconds

  Output:
    1   queued
    0   the id was seen before; nothing written
    -2  the run has no record
    { -3, status }  the run already ended; nothing written
]]
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return -2 end
if status == 'succeeded' or status == 'failed' or status == 'cancelled' then return { -3, status } end
if redis.call('SADD', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('RPUSH', KEYS[3], ARGV[2])
redis.call('HSETNX', KEYS[4], ARGV[3], 0)
for i = 2, 4 do redis.call('EXPIRE', KEYS[i], ARGV[4]) end
redis.call('HINCRBY', KEYS[1], 'wakes', 1)
return 1
`,
);
