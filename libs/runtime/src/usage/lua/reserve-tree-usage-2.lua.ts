import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisTreeUsage.reserve`. */
export const reserveTreeUsageScript = new LuaScript(
  'reserve-tree-usage-2',
  2,
  `--[[
  Before a live model call of a run tree with usage limits: refuses the call when the tree's
  spend, plus what calls in flight reserved, plus this call's estimate would pass a limit;
  otherwise reserves the estimate until the call settles (or the reservation expires: a worker
  that died mid-call). Expired reservations are dropped on the way. Both keys carry the root
  run's hash tag.

  Input:
    KEYS[1] usage         hash { tokens, microUsd, stats:<runId>… }
    KEYS[2] reservations  hash { <id> = "<tokens>:<microUsd>:<expiresAtMs>" }
    ARGV[1] reservation id
    ARGV[2] estimated tokens
    ARGV[3] estimated micro-USD
    ARGV[4] maxTokens ('' = none)
    ARGV[5] maxCostMicroUsd ('' = none)
    ARGV[6] now, epoch ms
    ARGV[7] the reservation's expiry, epoch ms
    ARGV[8] key expiry, seconds

  Output:
    { 1 }                                        reserved
    { 0, kind, limit, spentWithInFlight, estimate }  refused ('tokens' or 'cost'); nothing written
]]
local now = tonumber(ARGV[6])
local spent = redis.call('HMGET', KEYS[1], 'tokens', 'microUsd')
local tokens = tonumber(spent[1] or '0') or 0
local micro = tonumber(spent[2] or '0') or 0
local held = redis.call('HGETALL', KEYS[2])
for i = 1, #held, 2 do
  local t, c, exp = string.match(held[i + 1], '^(%d+):(%d+):(%d+)$')
  if exp and tonumber(exp) > now then
    tokens = tokens + tonumber(t)
    micro = micro + tonumber(c)
  else
    redis.call('HDEL', KEYS[2], held[i])
  end
end
local estTokens = tonumber(ARGV[2])
local estMicro = tonumber(ARGV[3])
if ARGV[4] ~= '' and tokens + estTokens > tonumber(ARGV[4]) then
  return { 0, 'tokens', ARGV[4], tostring(tokens), tostring(estTokens) }
end
if ARGV[5] ~= '' and (micro >= tonumber(ARGV[5]) or micro + estMicro > tonumber(ARGV[5])) then
  return { 0, 'cost', ARGV[5], tostring(micro), tostring(estMicro) }
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. ':' .. ARGV[3] .. ':' .. ARGV[7])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[8]))
return { 1 }
`,
);
