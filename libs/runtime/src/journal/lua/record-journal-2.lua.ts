import { ATTEMPT_SUPERSEDED, refuseSupersededAttempt } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunJournal.record`. */
export const recordJournalScript = new LuaScript(
  'record-journal-2',
  2,
  `--[[
  Records one journal entry at its position, unless one is there (the first write wins, so a
  crashed worker's replacement and a late original read the same outcome) or the writing
  attempt was superseded (attempt-fence.lua.ts).

  Input:
    KEYS[1] record    hash of the run record
    KEYS[2] journal   the run's journal hash
    ARGV[1] attempt token ('' = not fenced)
    ARGV[2] position
    ARGV[3] entry JSON

  Output:
    1  recorded
    0  the position was recorded already; nothing written
    ${ATTEMPT_SUPERSEDED} a newer attempt owns the run; nothing written
]]
${refuseSupersededAttempt('KEYS[1]', 'ARGV[1]')}
return redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[3])
`,
);
