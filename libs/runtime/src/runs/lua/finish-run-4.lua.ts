import { ATTEMPT_SUPERSEDED, refuseSupersededAttempt } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Argument builder: `finishRunArgs`. */
export const finishRunScript = new LuaScript(
  'finish-run-4',
  4,
  `--[[
  Ends a run exactly once: writes the terminal status and result, appends the run-end event,
  and starts the retention clocks. Whoever ends the run first (the worker, a cancel, the
  stalled-job handler) wins; later callers change nothing and emit no second run-end. A worker
  ending its own attempt passes its token: a superseded attempt is refused (attempt-fence.lua.ts).
  The attempt's events not written yet come along and are appended ahead of run-end (what
  append-events-2 would have done in a round trip of its own; dropped with the rest when the
  run had already ended).

  Input:
    KEYS[1] record    hash of the run record
    KEYS[2] events    the run's event stream
    KEYS[3] journal   the run's journal hash
    KEYS[4] cancel    the run's cancel flag
    ARGV[1] status: succeeded | failed | cancelled
    ARGV[2] now, epoch ms
    ARGV[3] output JSON, or ''
    ARGV[4] error JSON, or ''
    ARGV[5] usage JSON
    ARGV[6] modelCalls
    ARGV[7] run-end event JSON
    ARGV[8] event stream max length (approximate)
    ARGV[9] seconds to keep record, events (until compacted) and cancel flag
    ARGV[10] seconds to keep the journal
    ARGV[11] attempt token ('' = not an attempt: a cancel, the stalled-job handler, a deadline)
    ARGV[12..] the ending attempt's events not written yet, one event JSON each, in order

  Output:
    the run's events (XRANGE reply, run-end last)  ended now; the caller compacts them
    0  the run had already ended; nothing written
    ${ATTEMPT_SUPERSEDED} a newer attempt owns the run; nothing written
]]
${refuseSupersededAttempt('KEYS[1]', 'ARGV[11]')}
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'succeeded' or status == 'failed' or status == 'cancelled' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[1], 'endedAt', ARGV[2], 'usage', ARGV[5], 'modelCalls', ARGV[6])
redis.call('HDEL', KEYS[1], 'waitingFor', 'waits', 'pendingSteps')
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'output', ARGV[3]) end
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'error', ARGV[4]) end
for index = 12, #ARGV do
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[8], '*', 'event', ARGV[index])
end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[8], '*', 'event', ARGV[7])
redis.call('EXPIRE', KEYS[1], ARGV[9])
redis.call('EXPIRE', KEYS[2], ARGV[9])
redis.call('EXPIRE', KEYS[3], ARGV[10])
redis.call('EXPIRE', KEYS[4], ARGV[9])
return redis.call('XRANGE', KEYS[2], '-', '+')
`,
);
