import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `ConversationGate.register`. */
export const registerWriterScript = new LuaScript(
  'register-writer-4',
  3,
  `--[[
  A client submits a run on a conversation: the run takes its place in the conversation's line
  of writers (submission order). Idempotent: a run already in line keeps its place. An
  interrupting run (interrupt, rollback) takes the place right behind the head: every other run
  ahead of it leaves the line here, atomically, so none of them can start before it when the
  head ends while the client cancels them.
  An enqueue (the usual submit) is INCR + ZADD NX: the same place and the same replies as
  register-writer-3's ZSCORE + ZRANGE + INCR + ZADD, two commands fewer. A repeated submit spends
  a sequence number (only the order of the numbers counts, not their gaps).

  Input:
    KEYS[1] writers    sorted set: run id -> sequence (the head is the writer)
    KEYS[2] sequence   counter of sequence numbers
    KEYS[3] rollbacks  set of run ids whose unfinished turn is to be discarded
    ARGV[1] runId
    ARGV[2] onConflict: enqueue | reject | interrupt | rollback

  Output:
    { 1, runId... }  registered; for interrupt and rollback, the runs that were ahead of it (to
                     cancel: the head first, still in line, then those taken out of the line)
    { 0 }            already in line; nothing changed (but the counter: see above)
    { -1, headRunId } reject: another run holds or waits for the conversation; not registered
]]
local writers, sequence, rollbacks = KEYS[1], KEYS[2], KEYS[3]
local runId, onConflict = ARGV[1], ARGV[2]
if onConflict == 'enqueue' then
  if redis.call('ZADD', writers, 'NX', redis.call('INCR', sequence), runId) == 0 then return { 0 } end
  return { 1 }
end
if redis.call('ZSCORE', writers, runId) then return { 0 } end
local ahead = redis.call('ZRANGE', writers, 0, -1)
if onConflict == 'reject' and #ahead > 0 then return { -1, ahead[1] } end
redis.call('ZADD', writers, redis.call('INCR', sequence), runId)
local reply = { 1 }
if onConflict == 'interrupt' or onConflict == 'rollback' then
  for index, other in ipairs(ahead) do
    if onConflict == 'rollback' then redis.call('SADD', rollbacks, other) end
    if index > 1 then redis.call('ZREM', writers, other) end
    reply[#reply + 1] = other
  end
end
return reply
`,
);
