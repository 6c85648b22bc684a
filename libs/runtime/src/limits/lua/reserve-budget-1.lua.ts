import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `ModelBudgets.reserve`. */
export const reserveBudgetScript = new LuaScript(
  'reserve-budget-1',
  1,
  `--[[
  GCRA (the generic cell rate algorithm) over requests and tokens of one provider/model, for the
  whole fleet, in one round trip. The budget keeps, in Redis time (ms), the theoretical arrival
  time of the next request (rTat) and of the next token (tTat), and a pause set by a 429.
  A call reserves the earliest time it may go: at or after now, the pause, tTat, and rTat minus
  the burst tolerance; the schedules then move on by one request interval and by its tokens'
  intervals. A reservation further away than ARGV[5] is not taken (the caller waits, then asks
  again), so a caller that gives up wastes at most that much of the budget.

  Input:
    KEYS[1] budget  hash { rTat, tTat, pausedUntil }
    ARGV[1] request interval, ms (60000 / rpm), or 0 (no rpm)
    ARGV[2] burst tolerance, ms ((burst - 1) * request interval)
    ARGV[3] token interval, ms (60000 / tpm), or 0 (no tpm)
    ARGV[4] tokens the request is estimated to use
    ARGV[5] the furthest reservation taken, ms from now

  Output:
    { 1, waitMs, pausedMs }  reserved: go in waitMs (0: now)
    { 0, waitMs, pausedMs }  not reserved: the earliest time is waitMs away; ask again then
    (pausedMs: how much of the wait is a 429's pause)
]]
local key = KEYS[1]
local rInterval, tolerance = tonumber(ARGV[1]), tonumber(ARGV[2])
local tInterval, tokens, horizon = tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + tonumber(time[2]) / 1000
local state = redis.call('HMGET', key, 'rTat', 'tTat', 'pausedUntil')
local rTat = tonumber(state[1]) or now
local tTat = tonumber(state[2]) or now
local pausedUntil = tonumber(state[3]) or 0
local at = math.max(now, pausedUntil)
if rInterval > 0 then at = math.max(at, rTat - tolerance) end
if tInterval > 0 then at = math.max(at, tTat) end
local wait = at - now
local paused = math.max(0, pausedUntil - now)
if wait > horizon then return { 0, math.ceil(wait), math.ceil(paused) } end
if rInterval > 0 then rTat = math.max(rTat, at) + rInterval end
if tInterval > 0 then tTat = math.max(tTat, at) + tokens * tInterval end
redis.call('HSET', key, 'rTat', tostring(rTat), 'tTat', tostring(tTat))
redis.call('PEXPIRE', key, math.ceil(math.max(rTat, tTat, pausedUntil) - now) + 60000)
return { 1, math.ceil(wait), math.ceil(paused) }
`,
);
