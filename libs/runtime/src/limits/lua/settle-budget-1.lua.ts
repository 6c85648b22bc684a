import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Caller: `ModelBudgets.settle`. */
export const settleBudgetScript = new LuaScript(
  'settle-budget-1',
  1,
  `--[[
  A request's usage is known: its token schedule moves by the difference between the tokens it
  used and the estimate it reserved (back for fewer, on for more). A budget that expired is
  left alone.

  Input:
    KEYS[1] budget  hash { rTat, tTat, pausedUntil }
    ARGV[1] token schedule shift, ms ((used - estimated) * token interval)

  Output:
    1 settled, 0 no budget
]]
local tTat = tonumber(redis.call('HGET', KEYS[1], 'tTat'))
if not tTat then return 0 end
redis.call('HSET', KEYS[1], 'tTat', tostring(tTat + tonumber(ARGV[1])))
return 1
`,
);
