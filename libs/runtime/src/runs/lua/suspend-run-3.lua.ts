import { ATTEMPT_SUPERSEDED, refuseOtherOwner } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Argument builder: `suspendRunArgs`. */
export const suspendRunScript = new LuaScript(
  'suspend-run-3',
  3,
  `--[[
  A run's execution suspended on child runs or durable waits, with the writes its execution made
  last and had not sent yet (the run-suspended event, as a rule): suspend-run-2 and the
  write-run-2 call before it in one script, one round trip instead of two.
  The suspension: status waiting, what it waits for (waitingFor, and every wait in waits; both
  cleared when none is given, and by start-run-5), and the usage totals carried to the
  executions that follow (the worker adds this execution's share before calling). The journal
  positions of the durable steps the execution suspended on go to pendingSteps
  (runs/pending-steps.ts), replacing those of the previous suspension: the next execution loads
  them with the journal, so patched() sees a pending child call or wait as reached.
  The writes, as write-run-2 makes them: journal entries (each at its position unless one is
  there: the first write wins), then events appended to the stream in order.
  A newer attempt's run (attempt-fence.lua.ts, inlined to share the read) gets nothing written.
  A run that already ended (a cancel won the race) is not suspended and gets no event (its
  stream is compacted, or about to be), but the journal entries are recorded, as write-run-2
  records them.
  Commands: one HMGET, an HSETNX per entry, an XADD per event, one HSET, and one HDEL only when
  a field to remove is there. Same record writes and first three replies as suspend-run-2.
  Input:
    KEYS[1] record   hash of the run record
    KEYS[2] journal  the run's journal hash
    KEYS[3] events   the run's event stream
    ARGV[1] usage totals JSON
    ARGV[2] modelCalls total
    ARGV[3] now, epoch ms
    ARGV[4] attempt token ('' = not fenced)
    ARGV[5] waitingFor JSON { kind, detail } ('' = none: waits on child runs only)
    ARGV[6] waits JSON, a list of { waitingFor, wakeAt?, info? } ('' = none)
    ARGV[7] pending steps JSON, a list of journal positions ('' = none)
    ARGV[8] stream max length (approximate)
    ARGV[9] n: how many journal entries
    ARGV[10 .. 9+2n]  position, entry JSON of each entry
    ARGV[10+2n ..]    one event JSON each, in order
  Output:
    { 1, agentId, cleared, ids }  suspended; agentId for the count of waiting runs
                     (gate/waiting-runs.ts); cleared: 1 when a child-only suspension removed a
                     waitingFor (the run leaves that count), else 0; ids: the stream ids the
                     events were given, in order
    0  the run had already ended; no event appended, nothing else written but the entries
    ${ATTEMPT_SUPERSEDED} a newer attempt owns the run; nothing written
]]
local held = redis.call('HMGET', KEYS[1], 'attempt', 'status', 'agentId', 'waitingFor', 'waits',
  'pendingSteps')
${refuseOtherOwner('held[1]', 'ARGV[4]')}
local first = 10 + 2 * tonumber(ARGV[9])
for i = 10, first - 1, 2 do
  redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[i + 1])
end
local status = held[2]
if status == 'succeeded' or status == 'failed' or status == 'cancelled' then return 0 end
local ids = {}
for index = first, #ARGV do
  ids[#ids + 1] = redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[8], '*', 'event', ARGV[index])
end
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
return { 1, held[3] or '', cleared, ids }
`,
);
