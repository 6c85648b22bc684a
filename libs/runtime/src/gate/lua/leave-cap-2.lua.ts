import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `ConcurrencyGate.leave`. */
export const leaveCapScript = new LuaScript(
  'leave-cap-2',
  2,
  `--[[
  A run of a capped agent gives its place back (it ended, suspended, parked or was handed back),
  or a waiter leaves (it ended while it waited). Idempotent. Answers the oldest waiters, a few
  more than the free places (some may have ended meanwhile), for the caller to wake.

  Input:
    KEYS[1] holders   sorted set: run id -> when its lease lapses (ms)
    KEYS[2] waiters   sorted set: run id -> when it first waited (ms)
    ARGV[1] runId
    ARGV[2] limit

  Output:
    the run ids to wake, oldest first (empty when the cap is full or nobody waits)
]]
local holders, waiters = KEYS[1], KEYS[2]
local runId, limit = ARGV[1], tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREM', holders, runId)
redis.call('ZREM', waiters, runId)
redis.call('ZREMRANGEBYSCORE', holders, '-inf', now)
local free = limit - redis.call('ZCARD', holders)
if free <= 0 then return {} end
return redis.call('ZRANGE', waiters, 0, free + 4)
`,
);
