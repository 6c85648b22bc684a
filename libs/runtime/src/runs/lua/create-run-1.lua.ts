import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Argument builder: `createRunArgs`. */
export const createRunScript = new LuaScript(
  'create-run-1',
  1,
  `--[[
  Creates a run record in status queued, unless one exists (idempotent submit).

  Input:
    KEYS[1] record   hash of the run record
    ARGV[1] runId
    ARGV[2] agentId
    ARGV[3] conversationId, or ''
    ARGV[4] now, epoch ms

  Output:
    1  created
    0  a record existed; nothing written
]]
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'runId', ARGV[1], 'agentId', ARGV[2], 'status', 'queued',
  'createdAt', ARGV[4], 'attempts', 0, 'modelCalls', 0)
if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'conversationId', ARGV[3]) end
if ARGV[5] then
  redis.call('HSET', KEYS[1], 'parentRunId', ARGV[5], 'rootRunId', ARGV[6], 'callPath', ARGV[7],
    'fingerprint', ARGV[8])
end
return 1
`,
);
