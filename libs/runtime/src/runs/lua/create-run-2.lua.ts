import { LuaScript } from '../../store/lua-script.js';

/** See the header of the script. Argument builder: `createRunArgs`. */
export const createRunScript = new LuaScript(
  'create-run-2',
  1,
  `--[[
  Creates a run record in status queued, unless one exists (idempotent submit). A submitted run
  carries the hash of its whole submission: a record with another hash (or none) is another
  submission, so the same id is a conflict, not the same run.

  Input:
    KEYS[1] record   hash of the run record
    ARGV[1] runId (stored, qualified by its tenant)
    ARGV[2] agentId
    ARGV[3] conversationId (stored), or ''
    ARGV[4] now, epoch ms
    ARGV[5] tenant, or ''
    ARGV[6] submission hash, or '' (a child run)
    ARGV[7] scheduleId (stored) of a schedule's firing, or ''
    ARGV[8..12] for a child run: parentRunId, rootRunId, callPath, fingerprint, and the build it
                is pinned to (its pinned parent's) or ''

  Output:
    1   created
    0   a record existed (with the same submission hash); nothing written
    -1  a record existed with another submission hash (or none); nothing written
]]
if redis.call('EXISTS', KEYS[1]) == 1 then
  if ARGV[6] ~= '' and redis.call('HGET', KEYS[1], 'submission') ~= ARGV[6] then return -1 end
  return 0
end
-- One HSET with every field (create-run-1 sent one per optional group: up to 4 more commands).
local fields = {'runId', ARGV[1], 'agentId', ARGV[2], 'status', 'queued', 'createdAt', ARGV[4],
  'attempts', 0, 'modelCalls', 0}
local function add(name, value)
  if value and value ~= '' then
    fields[#fields + 1] = name
    fields[#fields + 1] = value
  end
end
add('conversationId', ARGV[3])
add('tenant', ARGV[5])
add('submission', ARGV[6])
add('scheduleId', ARGV[7])
if ARGV[8] then
  fields[#fields + 1] = 'parentRunId'
  fields[#fields + 1] = ARGV[8]
  fields[#fields + 1] = 'rootRunId'
  fields[#fields + 1] = ARGV[9]
  fields[#fields + 1] = 'callPath'
  fields[#fields + 1] = ARGV[10]
  fields[#fields + 1] = 'fingerprint'
  fields[#fields + 1] = ARGV[11]
  add('pinnedBuild', ARGV[12])
end
redis.call('HSET', KEYS[1], unpack(fields))
return 1
`,
);
