import { ATTEMPT_SUPERSEDED, refuseOtherOwner } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RunWriteBatch`. */
export const writeRunScript = new LuaScript(
  'write-run-2',
  3,
  `--[[
  One attempt's writes to its run that were made close together, in one call: journal entries
  (each at its position unless one is there: the first write wins, so a crashed worker's
  replacement and a late original read the same outcome) and events appended to the stream in
  order. Events are dropped when the run has ended: its stream was then compacted (or is about
  to be), and a late event must neither follow run-end nor create a stream again that nothing
  would expire; the entries are recorded all the same (as record-journal-3 did). A superseded
  attempt writes nothing (attempt-fence.lua.ts). Replaces record-journal-3 and append-events-3,
  one call each.

  Commands: the fence's attempt and the ended check's status are read in one HMGET (write-run-1:
  an HGET each), and only when needed: a token to check or events to append. Same keys,
  arguments, writes and replies as write-run-1.

  Input:
    KEYS[1] record    hash of the run record
    KEYS[2] journal   the run's journal hash
    KEYS[3] events    the run's event stream
    ARGV[1] attempt token ('' = not fenced)
    ARGV[2] stream max length (approximate)
    ARGV[3] n: how many journal entries
    ARGV[4 .. 3+2n]  position, entry JSON of each entry
    ARGV[4+2n ..]    one event JSON each, in order

  Output:
    the stream ids the events were given, in order (the worker encodes the run's timeline from
    the events it wrote, finish-run-7); 0 when the run had ended, no event appended
    ${ATTEMPT_SUPERSEDED} a newer attempt owns the run; nothing written
]]
local first = 4 + 2 * tonumber(ARGV[3])
local events = first <= #ARGV
local record
if ARGV[1] ~= '' or events then
  record = redis.call('HMGET', KEYS[1], 'attempt', 'status')
  -- The attempt fence (attempt-fence.lua.ts): no token, or no owner in the record, is never refused.
  ${refuseOtherOwner('record[1]', 'ARGV[1]')}
end
for i = 4, first - 1, 2 do
  redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[i + 1])
end
local ids = {}
if not events then return ids end
-- Read before the HSETNXs above, which write the journal only: the same status.
local status = record[2]
if status == 'succeeded' or status == 'failed' or status == 'cancelled' then return 0 end
for index = first, #ARGV do
  ids[#ids + 1] = redis.call('XADD', KEYS[3], 'MAXLEN', '~', ARGV[2], '*', 'event', ARGV[index])
end
return ids
`,
);
