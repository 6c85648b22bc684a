import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `ConversationGate.enter`. */
export const enterWriterScript = new LuaScript(
  'enter-writer-5',
  5,
  `--[[
  A worker is about to execute a run on a conversation. The run at the head of the line of
  writers gets the lease for this execution attempt (replacing an older attempt of the same run:
  a crashed or handed-back execution can then no longer append). Any other run waits. A run not
  in line (its job was added without the client, or a stale head was cleared) joins at the end.
  Asked to (ARGV[3]), an attempt that gets the lease also reads the conversation's latest
  version in the same call (what RedisConversationStore's latest load reads): under the lease
  nobody else appends, so it is what the run's own load would read after its start.
  The head is read first: a run first in line (the usual entry) is known to be in line without
  the ZSCORE enter-writer-4 made first, one command fewer; same keys, arguments and replies.
  No header, no conversation (a run's first turn): its list is not read (a load reads nothing
  past an empty header), one command fewer again.

  Input:
    KEYS[1] writers    sorted set: run id -> sequence
    KEYS[2] sequence   counter of sequence numbers
    KEYS[3] lease      hash { runId, attempt }
    KEYS[4] header     the conversation's header hash (conversationKeys)
    KEYS[5] messages   the conversation's message list
    ARGV[1] runId
    ARGV[2] attempt token
    ARGV[3] list index to read the messages from, or '' to read nothing

  Output:
    { 1 }                       the lease is this attempt's: execute
    { 1, headerFields, chunks } the same, with HGETALL header and LRANGE messages ARGV[3] -1
                                (chunks empty when the header is)
    { 0, headRunId }            wait: headRunId is first in line
]]
local writers, sequence, lease = KEYS[1], KEYS[2], KEYS[3]
local runId, attempt, from = ARGV[1], ARGV[2], ARGV[3]
local head = redis.call('ZRANGE', writers, 0, 0)[1]
if head ~= runId then
  if not redis.call('ZSCORE', writers, runId) then
    redis.call('ZADD', writers, redis.call('INCR', sequence), runId)
    -- Joined an empty line: first.
    head = head or runId
  end
  if head ~= runId then return { 0, head } end
end
redis.call('HSET', lease, 'runId', runId, 'attempt', attempt)
if from == '' then return { 1 } end
local header = redis.call('HGETALL', KEYS[4])
if #header == 0 then return { 1, header, {} } end
return { 1, header, redis.call('LRANGE', KEYS[5], tonumber(from), -1) }
`,
);
