import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `ConversationGate.leave`. */
export const leaveWriterScript = new LuaScript(
  'leave-writer-7',
  4,
  `--[[
  A run on a conversation ended (any terminal status, or cancelled while it waited): it leaves
  the line of writers and gives up the lease if it held it. Idempotent. Given the ending
  attempt's token, nothing is done while another attempt of the run holds the lease (a newer
  attempt took the run over: it leaves when it ends), so the leave can be sent with the
  attempt's finish without waiting for it.
  The first two in line are read first: a run alone in line (the usual leave) goes with the
  lease and the counter in one DEL (leave-writer-5: ZREM, ZRANGE, DEL, DEL), two commands
  fewer.
  A lease whose attempt is unset (written by register-writer-5 for a run's first attempt, which
  does not enter) is left by any attempt of its run (leave-writer-7; leave-writer-6 refused it):
  every later attempt enters, setting its own token, before it could end. Same keys, arguments,
  writes and replies as leave-writer-6 otherwise.

  Input:
    KEYS[1] writers    sorted set: run id -> sequence
    KEYS[2] sequence   counter of sequence numbers (deleted once nobody is in line)
    KEYS[3] lease      hash { runId, attempt }
    KEYS[4] rollbacks  set of run ids whose unfinished turn is to be discarded
    ARGV[1] runId
    ARGV[2] the ending attempt's token, or '' (leave whatever attempt holds the lease)

  Output:
    the run id now first in line (to wake), or '' when nobody is in line
    nil: not left, another attempt of the run holds the lease
]]
local writers, sequence, lease, rollbacks = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local runId, attempt = ARGV[1], ARGV[2]
local leaseRun, leaseAttempt = unpack(redis.call('HMGET', lease, 'runId', 'attempt'))
if leaseRun == runId and attempt ~= '' and leaseAttempt ~= attempt and leaseAttempt ~= '' then return false end
redis.call('SREM', rollbacks, runId)
local first = redis.call('ZRANGE', writers, 0, 1)
-- The head once this run is out of the line.
local head = first[1]
if head == runId then head = first[2] end
if not head then
  -- Nobody else in line: the line (this run alone, or empty), the counter and its lease go.
  if leaseRun == runId then redis.call('DEL', writers, sequence, lease) else redis.call('DEL', writers, sequence) end
  return ''
end
redis.call('ZREM', writers, runId)
if leaseRun == runId then redis.call('DEL', lease) end
return head
`,
);
