import { ATTEMPT_SUPERSEDED, refuseOtherOwner } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Argument builder: `finishRunArgs`. */
export const finishRunScript = new LuaScript(
  'finish-run-12',
  7,
  `--[[
  Ends a run exactly once: writes the terminal status and result, appends the run-end event,
  and starts the retention clocks. Whoever ends the run first (the worker, a cancel, the
  stalled-job handler) wins; later callers change nothing and emit no second run-end. A worker
  ending its own attempt passes its token: a superseded attempt is refused (attempt-fence.lua.ts).
  The attempt's writes not made yet come along (what write-run-1 would have done in a round trip
  of its own): its journal entries, recorded like write-run-1 does (first write of a position
  wins; even when the run had already ended), and its events, appended ahead of run-end (dropped
  with the rest when the run had already ended). (finish-run-6 took no journal entries.)

  Clean-up: the run's memory is deleted (the hashes its index set lists, then the index) and its
  children set gets the record's retention (ARCHITECTURE.md §5: memory is deleted when the run
  ends). A worker ending its own attempt (ARGV[13] = '1') cleans up after the fence but before
  the ended check: a run a cancel ended first is cleaned up too, and a journal its attempt wrote
  after that end gets the retention. Every other caller (a cancel, a deadline, the stalled-job
  handler, a rejection at a gate; ARGV[13] = '0') cleans up only when it ends the run itself, so
  no key of a run ended without an attempt is left without an expiry. The memory hash keys are
  built from the index's members and ARGV[12] (they share the run's hash tag, like KEYS).
  (finish-run-7 cleaned up for the worker only: a run ended without an attempt kept its memory
  and children set forever.)
  Neither the children set nor the memory index there (most runs): one EXISTS of both instead
  of the EXPIRE and the SMEMBERS (finish-run-10).

  Commands: one HMGET reads the attempt fence (attempt-fence.lua.ts, inlined to share the read),
  the status and the fields a run's end removes; HDEL only when one of those is there; the
  output or error goes in the HSET of the status; the stream check is one XINFO STREAM (XLEN
  when the worker says the stream is empty). (finish-run-8: HGET attempt, HGET status, HDEL,
  HSET output, XLEN + XREVRANGE; same keys, arguments, writes and replies.) The cancel flag is not
  given an expiry here (finish-run-9 sent an EXPIRE for it, a no-op on the usual missing flag): its
  only writer (cancel-run-tree.ts) sets it with its own expiry, the run retention. KEYS[4] stays in
  the argument layout (finish-run-9's), unused.

  Compaction: a worker that knows every event in the stream (it wrote them all, write-run-1
  gave it their ids) passes the run's timeline split where the stream ids it does not know yet
  begin (run-timeline.ts, encodeSplitRunTimeline). When the stream holds exactly those events
  (its length, and its last id, are what the worker says), the script completes the timeline
  with the ids of its own XADDs, stores it and leaves the stream to expire after the grace (what
  compact-events-2 does), and does not send the stream back. Exactly those: its length is the
  worker's count, as many entries were ever added (entries-added: none trimmed, deleted or
  written by another), and the last id generated is the worker's last. Otherwise (an earlier execution's
  events, another writer, no timeline passed) it replies with the stream for the caller to
  compact (compact-events-2).

  A worker whose attempt made the run's first execution (start-run-5 said so) and knows every
  event it wrote says the stream holds exactly those (ARGV[b+n+6] = '1'): then nothing is checked
  (finish-run-10 sent XLEN or XINFO STREAM). Nothing else writes a run's stream before its end:
  events come from the attempt that owns the run (write-run-2, fenced) and from a finish, and a
  finish by anyone else ended the run (this call replies 0 before looking at the stream); a
  newer attempt is refused by the fence above. The stream of an earlier run with the same id
  expired with its record. The compacted stream's XADDs leave out MAXLEN: it is known to be
  shorter than the max length.

  The end notice (finish-run-12): given a channel (ARGV[14]; every finisher passes one on a
  single Redis, <events key>:end), the run's end is published there as '<run-end's stream id>
  <run-end JSON>', so a result() waiting on it is woken once, by the end, with nothing left to
  read (events/run-end-reader.ts); a channel nobody listens to costs one PUBLISH. None on a
  Redis Cluster (''): readers there wait for sharded notices (events/event-notice.ts).
  Otherwise the same keys, writes and replies as finish-run-11, whose ARGV[14..] move up by one.

  Input:
    KEYS[1] record    hash of the run record
    KEYS[2] events    the run's event stream
    KEYS[3] journal   the run's journal hash
    KEYS[4] cancel    the run's cancel flag (unused since finish-run-10; it expires by itself)
    KEYS[5] timeline  the run's compacted timeline
    KEYS[6] children  the run's set of child run ids
    KEYS[7] memory index  the run's set of the callPaths that have a memory hash
    ARGV[1] status: succeeded | failed | cancelled
    ARGV[2] now, epoch ms
    ARGV[3] output JSON, or ''
    ARGV[4] error JSON, or ''
    ARGV[5] usage JSON
    ARGV[6] modelCalls
    ARGV[7] run-end event JSON
    ARGV[8] event stream max length (approximate)
    ARGV[9] seconds to keep record, events (until compacted), timeline and children set
    ARGV[10] seconds to keep the journal
    ARGV[11] attempt token ('' = not an attempt: a cancel, the stalled-job handler, a deadline)
    ARGV[12] prefix of the run's memory hash keys (+ callPath = key)
    ARGV[13] '1': clean up even when the run had ended already (a worker ending its own run);
             '0': only when this call ends it
    ARGV[14] the channel to publish the end on, or '' (none)
    ARGV[15] r: how many of the ending attempt's journal entries were not written yet
    ARGV[16 .. 15+2r] position, entry JSON of each
    then, from b = 16+2r:
    ARGV[b] n: how many of the ending attempt's events were not written yet
    ARGV[b+1 .. b+n] those events, one event JSON each, in order
    ARGV[b+n+1] the timeline's head ('' = no timeline: reply with the stream); when given:
    ARGV[b+n+2] the stream's length the head was encoded for
    ARGV[b+n+3] the stream's last id the head was encoded for ('' when empty)
    ARGV[b+n+4] the ms part of that id (0 when empty)
    ARGV[b+n+5] milliseconds the stream stays readable once compacted (the grace)
    ARGV[b+n+6] '1': the stream holds exactly the events the head covers (not checked); '0': check
    ARGV[b+n+7 ..] for each of the n events, then run-end: its at (epoch ms), its entry's tail

  Output:
    1  ended now and compacted
    the run's events (XRANGE reply, run-end last)  ended now; the caller compacts them
    0  the run had already ended; nothing written
    ${ATTEMPT_SUPERSEDED} a newer attempt owns the run; nothing written
]]
local record = redis.call('HMGET', KEYS[1], 'attempt', 'status', 'waitingFor', 'waits', 'pendingSteps')
-- The attempt fence (attempt-fence.lua.ts): no token, or no owner in the record, is never refused.
${refuseOtherOwner('record[1]', 'ARGV[11]')}
local function cleanUp()
  if redis.call('EXISTS', KEYS[6], KEYS[7]) == 0 then return end
  redis.call('EXPIRE', KEYS[6], ARGV[9])
  -- An index without members does not exist: nothing to delete then.
  local callPaths = redis.call('SMEMBERS', KEYS[7])
  for _, callPath in ipairs(callPaths) do
    redis.call('UNLINK', ARGV[12] .. callPath)
  end
  if #callPaths > 0 then redis.call('UNLINK', KEYS[7]) end
end
local own = ARGV[13] == '1'
if own then cleanUp() end
local base = 16 + 2 * tonumber(ARGV[15])
for i = 16, base - 1, 2 do
  redis.call('HSETNX', KEYS[3], ARGV[i], ARGV[i + 1])
end
local status = record[2]
if status == 'succeeded' or status == 'failed' or status == 'cancelled' then
  -- Entries this attempt wrote after another caller ended the run expire with the rest.
  if own then redis.call('EXPIRE', KEYS[3], ARGV[10]) end
  return 0
end
if not own then cleanUp() end
local pending = tonumber(ARGV[base])
local at = base + 1 + pending
local head = ARGV[at]
local compact = false
if head ~= '' then
  local expected = tonumber(ARGV[at + 1])
  -- Below the max length the stream was never trimmed, and this script's XADDs trim nothing.
  if expected + pending + 1 < tonumber(ARGV[8]) then
    if ARGV[at + 5] == '1' then
      compact = true
    elseif expected == 0 then
      compact = redis.call('XLEN', KEYS[2]) == 0
    else
      -- An error (no stream, or not one): not compacted here.
      local info = redis.pcall('XINFO', 'STREAM', KEYS[2])
      if type(info) == 'table' and not info.err then
        local field = {}
        for i = 1, #info - 1, 2 do field[info[i]] = info[i + 1] end
        compact = field['length'] == expected and field['entries-added'] == expected
          and field['last-generated-id'] == ARGV[at + 2]
      end
    end
  end
end
local fields = { 'status', ARGV[1], 'endedAt', ARGV[2], 'usage', ARGV[5], 'modelCalls', ARGV[6] }
if ARGV[3] ~= '' then
  fields[#fields + 1] = 'output'
  fields[#fields + 1] = ARGV[3]
end
if ARGV[4] ~= '' then
  fields[#fields + 1] = 'error'
  fields[#fields + 1] = ARGV[4]
end
redis.call('HSET', KEYS[1], unpack(fields))
if record[3] or record[4] or record[5] then redis.call('HDEL', KEYS[1], 'waitingFor', 'waits', 'pendingSteps') end
local ids = {}
for index = base + 1, base + pending + 1 do
  -- run-end (ARGV[7]) last; a stream to compact is short: no trim to check.
  local event = index > base + pending and ARGV[7] or ARGV[index]
  if compact then
    ids[#ids + 1] = redis.call('XADD', KEYS[2], '*', 'event', event)
  else
    ids[#ids + 1] = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[8], '*', 'event', event)
  end
end
-- A refused PUBLISH (an ACL without the channel) must not stop the end half-written: readers
-- still find it by their deadline.
if ARGV[14] ~= '' then redis.pcall('PUBLISH', ARGV[14], ids[#ids] .. ' ' .. ARGV[7]) end
redis.call('EXPIRE', KEYS[1], ARGV[9])
redis.call('EXPIRE', KEYS[3], ARGV[10])
if not compact then
  redis.call('EXPIRE', KEYS[2], ARGV[9])
  return redis.call('XRANGE', KEYS[2], '-', '+')
end
local entries = {}
local previous = tonumber(ARGV[at + 3])
for index, id in ipairs(ids) do
  local ms, seq = string.match(id, '^(%d+)-(%d+)$')
  ms = tonumber(ms)
  local slot = at + 4 + 2 * index
  entries[index] = string.format('[%d,%s,%d,', ms - previous, seq, ms - tonumber(ARGV[slot])) .. ARGV[slot + 1]
  previous = ms
end
redis.call('SET', KEYS[5], head .. table.concat(entries, ',') .. ']}', 'EX', ARGV[9])
redis.call('PEXPIRE', KEYS[2], ARGV[at + 4])
return 1
`,
);
