import { ATTEMPT_SUPERSEDED, refuseSupersededAttempt } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Argument builder: `startRunArgs`. */
export const startRunScript = new LuaScript(
  'start-run-5',
  4,
  `--[[
  A worker starts (or, after a crash, restarts) a run: status running, startedAt kept from the
  first start, the first starting worker's build kept, attempts + 1, waitingFor and waits (set while parked or suspended) cleared.
  Resuming a run that suspended on child runs (status waiting) is not a new attempt. A record
  missing because the job was added without the client is created on the way. The record takes
  the attempt's token (the attempt fence, attempt-fence.lua.ts): from then on writes of any
  older attempt are refused. An execution that continues after its own suspension (ARGV[5] = 1)
  must still own the run. A started run's reply carries what the worker would otherwise read in
  further commands: the totals of earlier executions, the count of wake-ups, and whether its
  cancel flag is set. Given a bound (ARGV[7] > 0), it also carries what the execution reads
  first from the run's keys, read here after the fence instead of in three commands after the
  reply: the journal with the pending steps, and the memory hash of the root invocation; each
  only when it holds at most ARGV[7] fields (a large one is read by the worker as before: built
  in Lua, a reply of thousands of entries is slower than a plain HGETALL). Since start-run-4 the
  record is read in one HMGET and written in one HSET (start-run-3 made 7–8 calls for it).

  Commands (start-run-5): the cancel flag, the journal and the memory hash are first asked in one
  EXISTS of the three keys; 0 (a first start, no cancel: most starts) answers all three reads
  (not cancelled, both empty). Otherwise each is asked as start-run-4 did: EXISTS of the flag
  and an HLEN each. The reply says whether this start is the run's first execution (no start
  before it: attempts was 0 and it is no resume from waiting): the worker then knows the run's
  stream holds only the events it writes itself (finish-run-12). Same keys, arguments and writes
  as start-run-4; the reply has one element more (old callers ignore it).

  Input:
    KEYS[1] record   hash of the run record
    KEYS[2] cancel   the run's cancel flag (a string, set by a cancel)
    KEYS[3] journal  the run's journal hash
    KEYS[4] memory   the memory hash of the run's root invocation
    ARGV[1] runId
    ARGV[2] agentId
    ARGV[3] now, epoch ms
    ARGV[4] attempt token
    ARGV[5] 1 when the same attempt continues after suspending, else 0
    ARGV[6] build id of the starting worker, or '': kept as buildId when the record has none
    ARGV[7] most fields of the journal, and of the memory, to send back; 0 (or absent): none

  Output:
    { 1, attempts, cleared, usage, modelCalls, wakes, cancelled, journal, pendingSteps, memory, first }
                     started; cleared: 1 when it
                     removed a waitingFor (the run leaves the count of waiting runs,
                     gate/waiting-runs.ts), else 0; usage (JSON, or false), modelCalls and wakes
                     (or false) as the record holds them; cancelled: 1 when the cancel flag is set;
                     journal: HGETALL of KEYS[3] and pendingSteps the record's field (or false),
                     or 0 and 0 when not sent; memory: HGETALL of KEYS[4], or 0 when not sent;
                     first: 1 when no execution of the run started before this one, else 0
    { 0, status }    the run already ended (succeeded, failed or cancelled); do not run it
    ${ATTEMPT_SUPERSEDED}               (continuing only) a newer attempt owns the run; nothing written
]]
if ARGV[5] == '1' then
  ${refuseSupersededAttempt('KEYS[1]', 'ARGV[4]')}
end
-- Every field the start reads, in one HMGET; what it writes, in one HSET (and an HDEL only when
-- the run waited).
local read = redis.call('HMGET', KEYS[1], 'status', 'waitingFor', 'waits', 'startedAt', 'buildId',
  'attempts', 'usage', 'modelCalls', 'wakes', 'pendingSteps')
local status = read[1]
if status == 'succeeded' or status == 'failed' or status == 'cancelled' then
  return { 0, status }
end
local fields = { 'status', 'running', 'attempt', ARGV[4] }
local modelCalls = read[8]
if not status then
  for _, value in ipairs({ 'runId', ARGV[1], 'agentId', ARGV[2], 'createdAt', ARGV[3], 'modelCalls', '0' }) do
    fields[#fields + 1] = value
  end
  modelCalls = '0'
end
if not read[4] then
  fields[#fields + 1] = 'startedAt'
  fields[#fields + 1] = ARGV[3]
end
if ARGV[6] and ARGV[6] ~= '' and not read[5] then
  fields[#fields + 1] = 'buildId'
  fields[#fields + 1] = ARGV[6]
end
local attempts
if status == 'waiting' then
  attempts = tonumber(read[6] or '1')
else
  attempts = (tonumber(read[6] or '0') or 0) + 1
  fields[#fields + 1] = 'attempts'
  fields[#fields + 1] = tostring(attempts)
end
redis.call('HSET', KEYS[1], unpack(fields))
local cleared = 0
if read[2] or read[3] then
  if read[2] then cleared = 1 end
  redis.call('HDEL', KEYS[1], 'waitingFor', 'waits')
end
local bound = tonumber(ARGV[7] or '0') or 0
local journal, pending, memory = 0, 0, 0
local cancelled
if bound > 0 then
  -- None of the three keys (a first start that nobody cancelled): one command answers all three.
  if redis.call('EXISTS', KEYS[2], KEYS[3], KEYS[4]) == 0 then
    cancelled, journal, pending, memory = 0, {}, read[10], {}
  else
    local length = redis.call('HLEN', KEYS[3])
    if length <= bound then
      journal = length == 0 and {} or redis.call('HGETALL', KEYS[3])
      pending = read[10]
    end
    length = redis.call('HLEN', KEYS[4])
    if length <= bound then memory = length == 0 and {} or redis.call('HGETALL', KEYS[4]) end
  end
end
cancelled = cancelled or redis.call('EXISTS', KEYS[2])
local first = (status ~= 'waiting' and (tonumber(read[6] or '0') or 0) == 0) and 1 or 0
return { 1, attempts, cleared, read[7], modelCalls, read[9], cancelled, journal, pending, memory, first }
`,
);
