import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Callers: `WaitingRuns.leave`, `WaitingRuns.prune`. */
export const leaveWaitingScript = new LuaScript(
  'leave-waiting-3',
  3,
  `--[[
  A run's record no longer says it waits (it started, ended, or its waitingFor was cleared): it
  leaves its group. Idempotent. A prune passes the entry time it saw: the run leaves only if it
  has not entered again since (enter-waiting-3 moves the time).

  Input:
    KEYS[1] runs     hash: run id -> group (JSON [kind, agentId])
    KEYS[2] since    sorted set: run id -> entered at (epoch ms)
    KEYS[3] counts   hash: group -> runs in it
    ARGV[1] runId
    ARGV[2] the entry time the caller saw, or '' (leave whatever it is)

  Output:
    1  left its group
    0  was in none, or entered again since ARGV[2]; nothing written
]]
local group = redis.call('HGET', KEYS[1], ARGV[1])
if not group then
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 0
end
if ARGV[2] ~= '' and redis.call('ZSCORE', KEYS[2], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HDEL', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
if redis.call('HINCRBY', KEYS[3], group, -1) <= 0 then redis.call('HDEL', KEYS[3], group) end
return 1
`,
);
