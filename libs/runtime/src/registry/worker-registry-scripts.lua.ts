import { LuaScript } from '../store/lua-script.js';

/** Drops announcements whose expiry passed (Redis time: hosts' clocks may differ). */
const DROP_EXPIRED = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local dead = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
for _, id in ipairs(dead) do redis.call('HDEL', KEYS[1], id) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
`;

/** Caller: `WorkerRegistry.announce`. */
export const announceWorkerScript = new LuaScript(
  'announce-worker-2',
  2,
  `--[[
  A live worker (re)announces itself; its announcement expires ttl ms from now (Redis time)
  unless announced again. Expired announcements of other workers are dropped on the way.

  Input:
    KEYS[1] live       hash of worker id -> announcement (JSON)
    KEYS[2] expiries   sorted set of worker id -> expiry (epoch ms, Redis time)
    ARGV[1] worker id
    ARGV[2] announcement JSON
    ARGV[3] ttl ms

  Output: the expiry (epoch ms)
]]
${DROP_EXPIRED}
local expiry = now + tonumber(ARGV[3])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], expiry, ARGV[1])
return expiry
`,
);

/** Caller: `WorkerRegistry.list`. */
export const listWorkersScript = new LuaScript(
  'list-workers-2',
  2,
  `--[[
  The live workers: expired announcements are dropped first.

  Input:
    KEYS[1] live       hash of worker id -> announcement (JSON)
    KEYS[2] expiries   sorted set of worker id -> expiry
    ARGV[1] most workers returned

  Output: { now, id1, expiry1, json1, id2, ... } (ids soonest-expiring first)
]]
${DROP_EXPIRED}
local out = { now }
local live = redis.call('ZRANGE', KEYS[2], 0, tonumber(ARGV[1]) - 1, 'WITHSCORES')
for i = 1, #live, 2 do
  local json = redis.call('HGET', KEYS[1], live[i])
  if json then
    out[#out + 1] = live[i]
    out[#out + 1] = live[i + 1]
    out[#out + 1] = json
  end
end
return out
`,
);
