import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisTreeUsage.reserve`. */
export const reserveTreeUsageScript = new LuaScript(
  'reserve-tree-usage-2',
  2,
  `--[[
  Before a live model call made under usage limits (equipBudget): refuses the call when, in
  one of the limits' scopes, the spend plus what calls in flight reserved plus this call's
  estimate would pass the limit; otherwise reserves the estimate in every scope until the call
  settles (or the reservation expires: a worker that died mid-call). Expired reservations are
  dropped on the way. Both keys carry the root run's hash tag.

  Input:
    KEYS[1] usage         hash { t:<scope> = tokens, c:<scope> = micro-USD, stats:<runId>… }
    KEYS[2] reservations  hash { <id>|<scope> = "<tokens>:<microUsd>:<expiresAtMs>" }
    ARGV[1] reservation id
    ARGV[2] estimated tokens
    ARGV[3] estimated micro-USD
    ARGV[4] now, epoch ms
    ARGV[5] the reservation's expiry, epoch ms
    ARGV[6] key expiry, seconds
    ARGV[7] n, the number of scopes; then per scope i (base = 7 + 3(i - 1)):
    ARGV[base+1] scope, ARGV[base+2] maxTokens ('' = none), ARGV[base+3] maxCostMicroUsd ('' = none)

  Output:
    { 1 }                                                    reserved
    { 0, kind, limit, spentWithInFlight, estimate, i }       refused by scope i ('tokens' or 'cost'); nothing written
]]
local now = tonumber(ARGV[4])
local n = tonumber(ARGV[7])
local heldT, heldC = {}, {}
for i = 1, n do
  local scope = ARGV[7 + 3 * (i - 1) + 1]
  local spent = redis.call('HMGET', KEYS[1], 't:' .. scope, 'c:' .. scope)
  heldT[scope] = tonumber(spent[1] or '0') or 0
  heldC[scope] = tonumber(spent[2] or '0') or 0
end
local held = redis.call('HGETALL', KEYS[2])
for i = 1, #held, 2 do
  local field = held[i]
  local t, c, exp = string.match(held[i + 1], '^(%d+):(%d+):(%d+)$')
  if not exp or tonumber(exp) <= now then
    redis.call('HDEL', KEYS[2], field)
  else
    local bar = string.find(field, '|', 1, true)
    local scope = bar and string.sub(field, bar + 1)
    if scope and heldT[scope] then
      heldT[scope] = heldT[scope] + tonumber(t)
      heldC[scope] = heldC[scope] + tonumber(c)
    end
  end
end
local estT = tonumber(ARGV[2])
local estC = tonumber(ARGV[3])
for i = 1, n do
  local base = 7 + 3 * (i - 1)
  local scope, maxT, maxC = ARGV[base + 1], ARGV[base + 2], ARGV[base + 3]
  if maxT ~= '' and heldT[scope] + estT > tonumber(maxT) then
    return { 0, 'tokens', maxT, string.format('%.0f', heldT[scope]), string.format('%.0f', estT), i }
  end
  if maxC ~= '' and (heldC[scope] >= tonumber(maxC) or heldC[scope] + estC > tonumber(maxC)) then
    return { 0, 'cost', maxC, string.format('%.0f', heldC[scope]), string.format('%.0f', estC), i }
  end
end
for i = 1, n do
  redis.call('HSET', KEYS[2], ARGV[1] .. '|' .. ARGV[7 + 3 * (i - 1) + 1], ARGV[2] .. ':' .. ARGV[3] .. ':' .. ARGV[5])
end
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[6]))
return { 1 }
`,
);
