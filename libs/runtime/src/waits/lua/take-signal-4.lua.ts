import { ATTEMPT_SUPERSEDED, refuseSupersededAttempt } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunWaits.takeSignal`. */
export const takeSignalScript = new LuaScript(
  'take-signal-4',
  4,
  `--[[
  A waitForSignal takes the next signal of its name into the journal, in one step: the signal
  is taken once (the name's cursor moves on) and recorded at the wait's position, so a crash
  can neither lose it nor hand it to two waits. When the position is recorded already (a
  replay, a timeout recorded first) that entry is returned and nothing is taken.

  Input:
    KEYS[1] record    hash of the run record (attempt fence)
    KEYS[2] journal   the run's journal hash
    KEYS[3] signals   list of the name's signals ({ id, payload } JSON), arrival order
    KEYS[4] cursors   hash of name -> signals taken so far
    ARGV[1] attempt token ('' = not fenced)
    ARGV[2] position
    ARGV[3] signal name
    ARGV[4] fingerprint
    ARGV[5] now, epoch ms

  Output:
    the journal entry JSON at the position (recorded before or now)
    false  no signal of that name is queued; nothing written
    ${ATTEMPT_SUPERSEDED} a newer attempt owns the run; nothing written
]]
${refuseSupersededAttempt('KEYS[1]', 'ARGV[1]')}
local recorded = redis.call('HGET', KEYS[2], ARGV[2])
if recorded then return recorded end
local taken = tonumber(redis.call('HGET', KEYS[4], ARGV[3]) or '0')
local signal = redis.call('LINDEX', KEYS[3], taken)
if not signal then return false end
redis.call('HSET', KEYS[4], ARGV[3], taken + 1)
local entry = '{"kind":"signal","fingerprint":' .. cjson.encode(ARGV[4]) ..
  ',"outcome":{"ok":true,"value":' .. signal .. '},"at":' .. ARGV[5] .. '}'
redis.call('HSET', KEYS[2], ARGV[2], entry)
return entry
`,
);
