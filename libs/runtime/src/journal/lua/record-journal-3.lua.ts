import { ATTEMPT_SUPERSEDED, refuseSupersededAttempt } from '../../store/lua/attempt-fence.lua.js';
import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `RedisRunJournal.record`. */
export const recordJournalScript = new LuaScript(
  'record-journal-3',
  2,
  `--[[
  Records journal entries, each at its position unless one is there (the first write wins, so a
  crashed worker's replacement and a late original read the same outcome), or none when the
  writing attempt was superseded (attempt-fence.lua.ts). Several entries per call: the steps of
  one execution that settle together (a parent adopting its ended children) share one call.
  (record-journal-2 took exactly one entry.)

  Input:
    KEYS[1] record    hash of the run record
    KEYS[2] journal   the run's journal hash
    ARGV[1] attempt token ('' = not fenced)
    ARGV[2], ARGV[3]  position, entry JSON of the first entry; then the next entry's, and so on

  Output:
    1  recorded (the positions already recorded were left as they were)
    ${ATTEMPT_SUPERSEDED} a newer attempt owns the run; nothing written
]]
${refuseSupersededAttempt('KEYS[1]', 'ARGV[1]')}
for i = 2, #ARGV, 2 do
  redis.call('HSETNX', KEYS[2], ARGV[i], ARGV[i + 1])
end
return 1
`,
);
