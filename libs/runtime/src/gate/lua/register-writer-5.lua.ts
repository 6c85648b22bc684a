import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `ConversationGate.register`. */
export const registerWriterScript = new LuaScript(
  'register-writer-5',
  5,
  `--[[
  A client submits a run on a conversation: the run takes its place in the conversation's line
  of writers (submission order). Idempotent: a run already in line keeps its place. An
  interrupting run (interrupt, rollback) takes the place right behind the head: every other run
  ahead of it leaves the line here, atomically, so none of them can start before it when the
  head ends while the client cancels them.
  An enqueue (the usual submit) is INCR + ZADD NX. A repeated submit spends a sequence number
  (only the order of the numbers counts, not their gaps).
  An enqueue onto an empty line (asked with ARGV[3] = 1: a submit that starts at once) also
  takes the lease for the run's first execution attempt, attempt unset (register-writer-5): that
  attempt then needs no enter-writer call (append-conversation-10 and leave-writer-7 accept any
  attempt of the lease's run while its attempt is unset; every later attempt enters, which
  fences the first). The counter is created with the line and deleted only with it (leave-writer
  DELs both when the last run leaves), so only an INCR answering 1 can find the line empty; the
  head is then read to be sure (ZRANGE): the run gets the lease exactly when enter-writer would
  give it. The reply says whether the conversation had a header then: under the lease
  nobody else can write it, so the first attempt knows what its load would read.

  Input:
    KEYS[1] writers    sorted set: run id -> sequence (the head is the writer)
    KEYS[2] sequence   counter of sequence numbers
    KEYS[3] rollbacks  set of run ids whose unfinished turn is to be discarded
    KEYS[4] lease      hash { runId, attempt }
    KEYS[5] header     the conversation's header hash (conversationKeys)
    ARGV[1] runId
    ARGV[2] onConflict: enqueue | reject | interrupt | rollback
    ARGV[3] 1: an enqueue onto an empty line takes the lease for the first attempt; 0: never

  Output:
    { 1, runId... }  registered; for interrupt and rollback, the runs that were ahead of it (to
                     cancel: the head first, still in line, then those taken out of the line)
    { 2, stored }    registered alone in line, the lease written { runId, attempt = '' };
                     stored = 1 when the conversation has a header, else 0
    { 0 }            already in line; nothing changed (but the counter: see above)
    { -1, headRunId } reject: another run holds or waits for the conversation; not registered
]]
local writers, sequence, rollbacks = KEYS[1], KEYS[2], KEYS[3]
local runId, onConflict = ARGV[1], ARGV[2]
if onConflict == 'enqueue' then
  local number = redis.call('INCR', sequence)
  if redis.call('ZADD', writers, 'NX', number, runId) == 0 then return { 0 } end
  if number ~= 1 or ARGV[3] ~= '1' then return { 1 } end
  -- A line whose counter is gone (a run put in line by hand) is not taken on trust.
  if redis.call('ZRANGE', writers, 0, 0)[1] ~= runId then return { 1 } end
  redis.call('HSET', KEYS[4], 'runId', runId, 'attempt', '')
  return { 2, redis.call('EXISTS', KEYS[5]) }
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
