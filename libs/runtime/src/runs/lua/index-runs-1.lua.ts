import { LuaScript } from '../../store/lua-script.js';

/** Most KEYS one call of {@link indexRunsScript} takes (`RedisRunIndex` splits a larger batch). */
export const INDEX_RUNS_MAX_KEYS = 64;

const source = `--[[
  Adds runs to the run list indexes of ONE tenant (run-index.ts): every key shares the tenant's
  hash tag ({x:<tenant>}), so the call stays in one slot of a Redis Cluster. Replaces a ZADD per
  index key (and the ZREMRANGEBYLEX + EXPIRE of a key's upkeep) with one call: one command, one
  reply, for the client's submit as for a parent creating its children.

  Each key gets its members with score 0 (adding one again is a no-op); a key whose upkeep is
  due (the caller decides: once per interval and process) also drops its members older than
  ARGV[1] and expires ARGV[2] seconds from now. Same writes, in the same order, as the plain
  commands it replaces.

  Input:
    KEYS[1..n]  the index keys (sorted sets of one tenant)
    ARGV[1]     exclusive lexicographic bound of the oldest member kept, e.g. '(000001795482087754'
    ARGV[2]     seconds an index key outlives its upkeep
    then for each key, in KEYS order:
      '1' when its upkeep is due, else '0'
      m: how many members follow
      the m members

  Output:
    n, the number of keys written
]]
local at = 3
for i = 1, #KEYS do
  local upkeep = ARGV[at] == '1'
  local count = tonumber(ARGV[at + 1])
  local first = at + 2
  -- In chunks: unpack() of a very large batch would overflow Lua's stack.
  while first < at + 2 + count do
    local last = math.min(first + 499, at + 1 + count)
    local scored = {}
    for j = first, last do
      scored[#scored + 1] = 0
      scored[#scored + 1] = ARGV[j]
    end
    redis.call('ZADD', KEYS[i], unpack(scored))
    first = last + 1
  end
  if upkeep then
    redis.call('ZREMRANGEBYLEX', KEYS[i], '-', ARGV[1])
    redis.call('EXPIRE', KEYS[i], ARGV[2])
  end
  at = at + 2 + count
end
return #KEYS
`;

/** See the header of the script. Caller: `RedisRunIndex`, with 1 to {@link INDEX_RUNS_MAX_KEYS} keys. */
export const indexRunsScript = new LuaScript('index-runs-1', 'any', source);
