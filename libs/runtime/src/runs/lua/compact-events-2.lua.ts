import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunRecords.finish`, when `finish-run-12` replied with the stream. */
export const compactEventsScript = new LuaScript(
  'compact-events-2',
  2,
  `--[[
  Replaces a finished run's event stream by its compacted timeline (one string), provided the
  stream still ends with the event the timeline was built up to. Events of an ended run are
  refused (write-run-2), so it always does unless the stream expired meanwhile. The stream
  is not deleted at once but left to expire after a short grace: a reader that looked for the
  timeline just before this ran and blocks on the stream right after still finds run-end there
  (on a deleted key it would block for its whole block time before looking again).

  Input:
    KEYS[1] events     the run's event stream
    KEYS[2] timeline   the run's compacted timeline
    ARGV[1] stream id of the last event in the timeline (run-end)
    ARGV[2] timeline JSON
    ARGV[3] seconds to keep the timeline (the record's retention)
    ARGV[4] milliseconds the stream stays readable (the grace)

  Output:
    1  compacted
    0  the stream changed or is gone; nothing written
]]
local last = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)[1]
if not last or last[1] ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
`,
);
