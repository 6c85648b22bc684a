import { ATTEMPT_SUPERSEDED, refuseSupersededAttempt } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunRecords.swapAttemptTrace`. */
export const swapAttemptTraceScript = new LuaScript(
  'swap-attempt-trace-1',
  1,
  `--[[
  An attempt whose run span is recorded (an OpenTelemetry SDK is registered) leaves the span's
  trace mark on the record while it runs, and takes the mark an earlier attempt left: an
  attempt that ends (or stops) clears its own (clear-attempt-trace-1), so a mark found here is
  that of an attempt that died with its process, whose run span was never exported.

  Input:
    KEYS[1] record   hash of the run record
    ARGV[1] the attempt's trace mark JSON
    ARGV[2] attempt token

  Output:
    the earlier mark (JSON), or false when there is none
    ${ATTEMPT_SUPERSEDED} a newer attempt owns the run; nothing written
]]
${refuseSupersededAttempt('KEYS[1]', 'ARGV[2]')}
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local earlier = redis.call('HGET', KEYS[1], 'attemptTrace')
redis.call('HSET', KEYS[1], 'attemptTrace', ARGV[1])
return earlier
`,
);
