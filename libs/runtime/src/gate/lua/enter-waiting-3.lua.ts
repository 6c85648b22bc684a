import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `WaitingRuns.enter`. */
export const enterWaitingScript = new LuaScript(
  'enter-waiting-3',
  3,
  `--[[
  A run's record now says it waits (waitingFor): it joins the group of its kind and agent,
  leaving the group it was in before, if another. Idempotent; entering again (even the same
  group) moves its entry time to now, which fences a prune that read the record before
  (leave-waiting-3 with ARGV[2]). The counts change with the membership, in this one script,
  so they cannot drift from it.

  Input:
    KEYS[1] runs     hash: run id -> group (JSON [kind, agentId])
    KEYS[2] since    sorted set: run id -> entered at (epoch ms)
    KEYS[3] counts   hash: group -> runs in it
    ARGV[1] runId
    ARGV[2] group
    ARGV[3] now, epoch ms

  Output:
    1  joined the group
    0  was in it already (its entry time moved)
]]
local previous = redis.call('HGET', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
if previous == ARGV[2] then return 0 end
if previous then
  if redis.call('HINCRBY', KEYS[3], previous, -1) <= 0 then redis.call('HDEL', KEYS[3], previous) end
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('HINCRBY', KEYS[3], ARGV[2], 1)
return 1
`,
);
