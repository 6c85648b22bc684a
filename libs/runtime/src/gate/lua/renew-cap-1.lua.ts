import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `ConcurrencyGate.renew`. */
export const renewCapScript = new LuaScript(
  'renew-cap-1',
  1,
  `--[[
  A run still executing renews its place under a concurrency cap (only while it holds one: a
  lapsed place is not taken back, the run finishes over the cap once).

  Input:
    KEYS[1] holders   sorted set: run id -> when its lease lapses (ms)
    ARGV[1] runId
    ARGV[2] lease, ms

  Output:
    1 renewed, 0 the run holds no place
]]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
return 1
`,
);
