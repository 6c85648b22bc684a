import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `ModelBudgets.pause`. */
export const pauseBudgetScript = new LuaScript(
  'pause-budget-1',
  1,
  `--[[
  The provider answered 429 (with retry-after, or our backoff): no reservation of this
  provider/model goes before the pause ends, on any worker. Pauses only grow.

  Input:
    KEYS[1] budget  hash { rTat, tTat, pausedUntil }
    ARGV[1] pause, ms from now

  Output:
    the pause left, ms
]]
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local pausedUntil = math.max(tonumber(redis.call('HGET', KEYS[1], 'pausedUntil')) or 0, now + tonumber(ARGV[1]))
redis.call('HSET', KEYS[1], 'pausedUntil', tostring(pausedUntil))
local ttl = redis.call('PTTL', KEYS[1])
local needed = math.ceil(pausedUntil - now) + 60000
if ttl < needed then redis.call('PEXPIRE', KEYS[1], needed) end
return math.ceil(pausedUntil - now)
`,
);
