import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `answerApproval` (`waits/answer-approval.ts`). */
export const answerApprovalScript = new LuaScript(
  'answer-approval-3',
  3,
  `--[[
  A person answers the approval of one tool call. The first answer wins (a repeat of the same
  answer is accepted as a no-op); the run's wake count goes up (worker/park-until-woken.ts).

  Input:
    KEYS[1] record     hash of the run record
    KEYS[2] requests   hash of tool call id -> request JSON
    KEYS[3] approvals  hash of tool call id -> answer JSON
    ARGV[1] tool call id
    ARGV[2] answer JSON
    ARGV[3] key expiry, seconds

  Output:
    1   answered
    0   answered before with the same answer; nothing written
    -1  answered before with another answer; nothing written
    -2  the run has no record
    -4  the run asked no approval of that call
    { -3, status }  the run already ended; nothing written
]]
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return -2 end
if status == 'succeeded' or status == 'failed' or status == 'cancelled' then return { -3, status } end
local before = redis.call('HGET', KEYS[3], ARGV[1])
if before then
  if before == ARGV[2] then return 0 end
  return -1
end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 0 then return -4 end
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
redis.call('EXPIRE', KEYS[3], ARGV[3])
redis.call('HINCRBY', KEYS[1], 'wakes', 1)
return 1
`,
);
