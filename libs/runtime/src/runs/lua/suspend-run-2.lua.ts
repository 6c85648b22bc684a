import { ATTEMPT_SUPERSEDED, refuseOtherOwner } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Argument builder: `suspendRunArgs` (the arguments of suspend-run-1). */
export const suspendRunScript = new LuaScript(
  'suspend-run-2',
  1,
  `--[[
  A run's execution suspended on child runs or durable waits: status waiting, what it waits for
  (waitingFor, and every wait in waits; both cleared when none is given, and by start-run-4),
  and the usage totals carried to the executions that follow (the worker adds this execution's
  share before calling). The journal positions of the durable steps the execution suspended on
  go to pendingSteps (runs/pending-steps.ts), replacing those of the previous suspension: the
  next execution loads them with the journal, so patched() sees a pending child call or wait
  as reached. A run that already ended (a cancel won the race) is left as it is, and so is one a
  newer attempt owns (attempt-fence.lua.ts, inlined to share the read).
  Commands: one HMGET (the fence, status, agentId and the fields a suspension may remove), one
  HSET, and one HDEL only when a field to remove is there (suspend-run-1: HGET attempt, HGET
  status, HSET, two or three HSET/HDEL, HGET agentId: 7 for a fan-out's parent). Same
  arguments, writes and replies as suspend-run-1.
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
local held = redis.call('HMGET', KEYS[1], 'attempt', 'status', 'agentId', 'waitingFor', 'waits',
  'pendingSteps')
${refuseOtherOwner('held[1]', 'ARGV[4]')}
local status = held[2]
if status == 'succeeded' or status == 'failed' or status == 'cancelled' then return 0 end
local fields = { 'status', 'waiting', 'usage', ARGV[1], 'modelCalls', ARGV[2], 'suspendedAt', ARGV[3] }
local removed = {}
local cleared = 0
if ARGV[5] ~= '' then
  table.insert(fields, 'waitingFor')
  table.insert(fields, ARGV[5])
  table.insert(fields, 'waits')
  table.insert(fields, ARGV[6])
else
  if held[4] then
    table.insert(removed, 'waitingFor')
    cleared = 1
  end
  if held[5] then table.insert(removed, 'waits') end
end
if ARGV[7] ~= '' then
  table.insert(fields, 'pendingSteps')
  table.insert(fields, ARGV[7])
elseif held[6] then
  table.insert(removed, 'pendingSteps')
end
redis.call('HSET', KEYS[1], unpack(fields))
if #removed > 0 then redis.call('HDEL', KEYS[1], unpack(removed)) end
return { 1, held[3] or '', cleared }
`,
);
