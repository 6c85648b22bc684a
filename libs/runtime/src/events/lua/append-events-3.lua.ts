import { ATTEMPT_SUPERSEDED, refuseSupersededAttempt } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunEventSink`. */
export const appendEventsScript = new LuaScript(
  'append-events-3',
  2,
  `--[[
  Appends a batch of a run's events to its stream, unless the run has ended: its stream was
  then compacted (or is about to be), and a late event from abandoned work must neither follow
  run-end nor create a stream again that nothing would ever expire. Events of a superseded
  attempt are refused too (attempt-fence.lua.ts): the newer attempt tells the run's story.

  Input:
    KEYS[1] record   hash of the run record
    KEYS[2] events   the run's event stream
    ARGV[1] stream max length (approximate)
    ARGV[2] attempt token ('' = not fenced)
    ARGV[3..] one event JSON each, in order

  Output:
    the stream ids the events were given, in order (the worker encodes the run's timeline from
    the events it wrote, finish-run-6); 0 when the run had ended, nothing appended
    ${ATTEMPT_SUPERSEDED} a newer attempt owns the run; nothing appended
]]
${refuseSupersededAttempt('KEYS[1]', 'ARGV[2]')}
local status = redis.call('HGET', KEYS[1], 'status')
if status == 'succeeded' or status == 'failed' or status == 'cancelled' then return 0 end
local ids = {}
for index = 3, #ARGV do
  ids[#ids + 1] = redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[1], '*', 'event', ARGV[index])
end
return ids
`,
);
