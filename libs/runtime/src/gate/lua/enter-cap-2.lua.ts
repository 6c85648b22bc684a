import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `ConcurrencyGate.enter`. */
export const enterCapScript = new LuaScript(
  'enter-cap-2',
  2,
  `--[[
  A worker is about to execute a run of an agent with a concurrency cap: the run takes a place
  when fewer than the limit hold one (a place is a lease, renewed while the run executes, so a
  dead worker's place lapses by itself), else it waits in the cap's waiters. Holders whose lease
  lapsed are dropped first. A run that already holds a place renews it. Times are Redis' own.

  Input:
    KEYS[1] holders   sorted set: run id -> when its lease lapses (ms)
    KEYS[2] waiters   sorted set: run id -> when it first waited (ms)
    ARGV[1] runId
    ARGV[2] limit
    ARGV[3] lease, ms

  Output:
    { 1, holders }  the run holds a place (holders: how many hold one now)
    { 0, holders }  the cap is full: the run is among the waiters
]]
local holders, waiters = KEYS[1], KEYS[2]
local runId, limit, lease = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', holders, '-inf', now)
local held = redis.call('ZSCORE', holders, runId)
local count = redis.call('ZCARD', holders)
if held or count < limit then
  redis.call('ZADD', holders, now + lease, runId)
  redis.call('ZREM', waiters, runId)
  redis.call('PEXPIRE', holders, lease * 2)
  return { 1, redis.call('ZCARD', holders) }
end
redis.call('ZADD', waiters, 'NX', now, runId)
redis.call('PEXPIRE', waiters, 24 * 3600 * 1000)
return { 0, count }
`,
);
