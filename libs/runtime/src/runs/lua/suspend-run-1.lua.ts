import { ATTEMPT_SUPERSEDED, refuseSupersededAttempt } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Argument builder: `suspendRunArgs`. */
export const suspendRunScript = new LuaScript(
  'suspend-run-1',
  1,
  `--[[
  A run's execution suspended on child runs or durable waits: status waiting, what it waits for
  (waitingFor, and every wait in waits; both cleared when none is given, and by start-run-4),
  and the usage totals carried to the executions that follow (the worker adds this execution's
  share before calling). The journal positions of the durable steps the execution suspended on
  go to pendingSteps (runs/pending-steps.ts), replacing those of the previous suspension: the
  next execution loads them with the journal, so patched() sees a pending child call or wait
  as reached. A run
  that already ended (a cancel won the race) is left as it is, and so is one a newer attempt
  owns (attempt-fence.lua.ts).
  Input:
    KEYS[1] record   hash of the run record
    ARGV[1] usage totals JSON
    ARGV[2] modelCalls total
    ARGV[3] now, epoch ms
    ARGV[4] attempt token ('' = not fenced)
    ARGV[5] waitingFor JSON { kind, detail } ('' = none: waits on child runs only)
    ARGV[6] waits JSON, a list of { waitingFor, wakeAt?, info? } ('' = none)
    ARGV[7] pending steps JSON, a list of journal positions ('' = none)
  Output:
    { 1, agentId, cleared }  suspended; agentId for the count of waiting runs
                     (gate/waiting-runs.ts); cleared: 1 when a child-only suspension removed a
                     waitingFor (the run leaves that count), else 0
    0  the run had already ended; nothing written
    ${ATTEMPT_SUPERSEDED} a newer attempt owns the run; nothing written
]]
${refuseSupersededAttempt('KEYS[1]', 'ARGV[4]')}
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'succeeded' or status == 'failed' or status == 'cancelled' then return 0 end
redis.call('HSET', KEYS[1], 'status', 'waiting', 'usage', ARGV[1], 'modelCalls', ARGV[2],
  'suspendedAt', ARGV[3])
local cleared = 0
if ARGV[5] ~= '' then
  redis.call('HSET', KEYS[1], 'waitingFor', ARGV[5], 'waits', ARGV[6])
else
  cleared = redis.call('HDEL', KEYS[1], 'waitingFor')
  redis.call('HDEL', KEYS[1], 'waits')
end
if ARGV[7] ~= '' then
  redis.call('HSET', KEYS[1], 'pendingSteps', ARGV[7])
else
  redis.call('HDEL', KEYS[1], 'pendingSteps')
end
return { 1, redis.call('HGET', KEYS[1], 'agentId') or '', cleared }
`,
);
