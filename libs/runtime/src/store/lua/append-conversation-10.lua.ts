import { LuaScript } from '../lua-script.js';

/** See the header of the script. Argument builder: `appendConversationArgs`. */
export const appendConversationScript = new LuaScript(
  'append-conversation-10',
  // 5 keys, or 6 with the blobs set (see KEYS): appendConversationArgs bounds the list.
  'any',
  `--[[
  Appends one turn to a conversation, or writes a new base (a compacted history that later
  turns build on): fenced by the conversation's lease, compare-and-set on the version,
  idempotent by appendId. A base is pushed onto the same message list; the version records
  where its messages start (baseStart, and baseChunk in the list), so every earlier version
  still reads back whole. Writes only the new messages and one small version entry, so the
  bytes written per turn do not grow with the length of the conversation. With a retention,
  every key of the conversation expires that long after this turn (all together); the caller
  has already pushed the expiry of every blob the conversation references past it.

  The message list holds chunks: one or more message JSON texts joined by ',' (a load joins
  the chunks the same way and parses them as one JSON array, so Redis sends a few large replies
  instead of one per message). A turn's messages join the last chunk while it stays within the
  chunk bound (ARGV[14]); otherwise (and always for a base) they start a new chunk, which may
  exceed the bound when one turn does. Entries written by append-conversation-6 are chunks of
  one message; its last one is never extended (the header then has no tailBytes). A bound of 0
  writes one message per entry, as append-conversation-6 did (readable by its loaders, for a
  rolling deploy).

  The reply's header is built from what the script read (one HMGET of every header field) and
  wrote, not read back with an HGETALL after the write (append-conversation-7 did). The applied
  marker is checked and written by one HSETNX, the script's first write, made once every check
  and every value it computes passed (append-conversation-8: HEXISTS first, HSET last): one
  command fewer per append. An append whose version moved on asks HEXISTS (duplicate or
  conflict), and a duplicate's header is the one the HMGET read (updatedAt included), not an
  HGETALL.

  append-conversation-10 (same keys, arguments and writes as -9):
  - A lease whose attempt is unset (register-writer-5 writes it for a run's first attempt,
    which does not enter) accepts any attempt of its run: every later attempt of the run enters
    first (enter-writer sets its token), which fences the first one again.
  - The reply is the header's values in a fixed order (no field names; numbers as integers),
    only those a ConversationHeader holds: the caller knows the conversation id and the schema
    version. ARGV[1] may be '' unless expectedVersion is 0 (only a new header stores it).
  - The lease is KEYS[5]; the blobs set (KEYS[6]) is passed only when the call touches it: the
    bytes of a key name less on most turns.

  Input:
    KEYS[1] header    hash: schemaVersion, conversationId, version, messageCount (messages in
                      the list), system, systemAt, model, usage, createdAt, updatedAt, baseStart
                      (index of the latest version's first message), baseChunk (list index of
                      the chunk it starts; absent = baseStart), baseAt (version of its base, 0 =
                      none), base (JSON provenance of that base), lastPromptTokens, chunks (list
                      length; absent = messageCount), tailBytes (bytes of the last chunk, 0 or
                      absent = start a new one)
    KEYS[2] messages  list of chunks (see above)
    KEYS[3] versions  list of version entry JSON; entry v-1 describes version v (chunks = list
                      length after it)
    KEYS[4] appends   hash: appendId -> version that append produced
    KEYS[5] lease     hash { runId, attempt }: the one execution attempt allowed to append
    KEYS[6] blobs     set of the sha256 of every media blob the conversation references; only
                      when the call adds blobs or sets a retention (the only calls that touch it)

    ARGV[1] conversationId (may be '' when expectedVersion is not 0)
    ARGV[2] expectedVersion
    ARGV[3] appendId
    ARGV[4] now, ISO 8601
    ARGV[5] system prompt JSON, or '' to keep the current one
    ARGV[6] model JSON, or '' to keep the current one
    ARGV[7] usage JSON of this turn (added to the totals), or '' for none
    ARGV[8] retention seconds after this turn, or 0 to keep the conversation (no expiry set)
    ARGV[9] number of blob hashes that follow
    ARGV[10] writer run id, or '' for a writer outside any run (refused while a lease is held)
    ARGV[11] writer attempt token, or ''
    ARGV[12] base provenance JSON object (this write is a base), or '' (an append)
    ARGV[13] the provider's promptTokens of the turn's last model call, or '' (kept as it was)
    ARGV[14] chunk bound in bytes; 0 = one message per entry
    ARGV[15..] the sha256 of each blob this turn's messages reference, then one message JSON per slot

  Output:
    { 1, header }   appended; header = the new header's { version, messageCount, baseStart,
                    system, model, usage, createdAt, updatedAt, base, lastPromptTokens }
                    (numbers as integers, an absent field as nil)
    { 0, header }   appendId was applied before; the current header (the same values), nothing written
    { -1, version } conflict: the stored version is not expectedVersion
    { -2, holder }  the writer does not hold the lease; holder = the run that does, or ''
]]
local headerKey, messagesKey, versionsKey, appendsKey, blobsKey = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[6]
local retention, blobCount = tonumber(ARGV[8]), tonumber(ARGV[9])
local chunkBound = tonumber(ARGV[14])
local firstBlob = 15
local firstMessage, lastMessage = firstBlob + blobCount, #ARGV
local added = lastMessage - firstMessage + 1
local conversationId, appendId, now = ARGV[1], ARGV[3], ARGV[4]
local system, model, turnUsage, baseSource = ARGV[5], ARGV[6], ARGV[7], ARGV[12]

-- The fence: a writer with a run must hold the lease; one without may write only while no run does.
local leaseRun, leaseAttempt = unpack(redis.call('HMGET', KEYS[5], 'runId', 'attempt'))
-- A lease with its attempt unset (a run's first attempt, which did not enter) is its run's.
if ARGV[10] ~= '' or leaseRun then
  if leaseRun ~= ARGV[10] or (leaseAttempt ~= ARGV[11] and leaseAttempt ~= '') then
    return { -2, leaseRun or '' }
  end
end

-- Every header field the append reads or replies with, in one command.
local h = redis.call('HMGET', headerKey, 'version', 'system', 'systemAt', 'messageCount', 'usage', 'model',
  'lastPromptTokens', 'baseStart', 'baseAt', 'baseChunk', 'tailBytes', 'chunks', 'createdAt', 'base', 'updatedAt')
-- The reply's header (see Output). An absent field is false (a nil reply): a nil would end the
-- array there.
local function header(version, messageCount, baseStart, system, model, usage, createdAt, updatedAt, base, lastPrompt)
  return { tonumber(version), tonumber(messageCount), tonumber(baseStart), system, model or false, usage, createdAt,
    updatedAt, base or false, lastPrompt and tonumber(lastPrompt) or false }
end
-- The header as it is now: a duplicate's reply.
local function current()
  return header(h[1], h[4], h[8] or 0, h[2], h[6], h[5], h[13], h[15], h[14], h[7])
end
local version = tonumber(h[1] or '0')
if version ~= tonumber(ARGV[2]) then
  -- Applied before (a replay whose append landed), or another version: a conflict.
  if redis.call('HEXISTS', appendsKey, appendId) == 1 then return { 0, current() } end
  return { -1, version }
end

-- What the final HSET writes (field, value pairs).
local fields = {}
local currentSystem, systemAt, previousCount, usage = h[2], h[3], h[4], h[5]
if version == 0 then
  currentSystem, systemAt, previousCount = '[]', '0', '0'
  usage = '{"promptTokens":0,"completionTokens":0,"totalTokens":0}'
  for _, value in ipairs({ 'schemaVersion', 1, 'conversationId', conversationId, 'createdAt', now,
      'system', '[]', 'systemAt', 0 }) do
    fields[#fields + 1] = value
  end
end

local nextVersion = version + 1
local entrySystem = ''
if system ~= '' and system ~= currentSystem then
  systemAt, currentSystem = tostring(nextVersion), system
  for _, value in ipairs({ 'system', system, 'systemAt', nextVersion }) do fields[#fields + 1] = value end
  entrySystem = ',"system":' .. system
end
local currentModel = h[6]
if model ~= '' then
  currentModel = model
  fields[#fields + 1] = 'model'
  fields[#fields + 1] = model
end
-- A base replaces the prompt the last count was measured on: the count goes with it (HDEL below).
local lastPrompt, dropLastPrompt = h[7], false
if ARGV[13] ~= '' then
  lastPrompt = ARGV[13]
  fields[#fields + 1] = 'lastPromptTokens'
  fields[#fields + 1] = lastPrompt
elseif baseSource ~= '' and lastPrompt then
  lastPrompt, dropLastPrompt = false, true
end

if turnUsage ~= '' then
  local total, turn = cjson.decode(usage), cjson.decode(turnUsage)
  total.promptTokens = (total.promptTokens or 0) + (turn.promptTokens or 0)
  total.completionTokens = (total.completionTokens or 0) + (turn.completionTokens or 0)
  total.totalTokens = (total.totalTokens or 0) + (turn.totalTokens or 0)
  if type(turn.details) == 'table' then
    if type(total.details) ~= 'table' then total.details = {} end
    for name, count in pairs(turn.details) do
      total.details[name] = (total.details[name] or 0) + count
    end
  end
  usage = cjson.encode(total)
end

previousCount = tonumber(previousCount)
local messageCount = previousCount + added
local baseStart = tonumber(h[8] or '0')
local baseAt = tonumber(h[9] or '0')
-- Lists written before chunks hold one message per entry: chunk indexes are message indexes.
local baseChunk = tonumber(h[10] or h[8] or '0')
local tailBytes = tonumber(h[11] or '0')
local chunks = tonumber(h[12] or previousCount)
local entryBase, base = '', h[14]
if baseSource ~= '' then
  -- A base starts a chunk of its own: its version reads from there.
  baseStart, baseAt, baseChunk, tailBytes = previousCount, nextVersion, chunks, 0
  base = '{"version":' .. nextVersion .. ',"compactedFrom":' .. version .. ',"createdAt":"' .. now ..
    '",' .. string.sub(baseSource, 2)
  fields[#fields + 1] = 'base'
  fields[#fields + 1] = base
  entryBase = ',"base":' .. base
end

-- Checks the applied marker and writes it, as the first write: after the checks and the
-- computations from the header (a script is not rolled back; what follows cannot fail on a
-- header a load accepts). Only a marker left by a write at an earlier version is found here:
-- an append of it moved the version on (the usual duplicate is the HEXISTS above).
if redis.call('HSETNX', appendsKey, appendId, nextVersion) == 0 then return { 0, current() } end
if dropLastPrompt then redis.call('HDEL', headerKey, 'lastPromptTokens') end
-- One SADD per batch of arguments, not per element (batches stay under unpack's limit).
for from = firstBlob, firstBlob + blobCount - 1, 1000 do
  redis.call('SADD', blobsKey, unpack(ARGV, from, math.min(from + 999, firstBlob + blobCount - 1)))
end
if chunkBound == 0 then
  -- One message per entry (the list then reads as append-conversation-6 wrote it).
  for from = firstMessage, lastMessage, 1000 do
    redis.call('RPUSH', messagesKey, unpack(ARGV, from, math.min(from + 999, lastMessage)))
  end
  chunks, tailBytes = chunks + added, 0
elseif added > 0 then
  local joined = table.concat(ARGV, ',', firstMessage, lastMessage)
  if tailBytes > 0 and tailBytes + 1 + #joined <= chunkBound then
    -- Read and rewrite the last chunk: bounded by chunkBound, whatever the conversation's length.
    local tail = redis.call('LINDEX', messagesKey, -1) .. ',' .. joined
    redis.call('LSET', messagesKey, -1, tail)
    tailBytes = #tail
  else
    redis.call('RPUSH', messagesKey, joined)
    chunks, tailBytes = chunks + 1, #joined
  end
end
local entryModel = ''
if currentModel then entryModel = ',"model":' .. currentModel end
if lastPrompt then entryModel = entryModel .. ',"lastPromptTokens":' .. lastPrompt end

for _, value in ipairs({ 'version', nextVersion, 'messageCount', messageCount, 'usage', usage,
    'updatedAt', now, 'baseStart', baseStart, 'baseAt', baseAt, 'baseChunk', baseChunk, 'tailBytes', tailBytes,
    'chunks', chunks }) do
  fields[#fields + 1] = value
end
redis.call('HSET', headerKey, unpack(fields))
redis.call('RPUSH', versionsKey, '{"messageCount":' .. messageCount .. ',"systemAt":' .. systemAt ..
  ',"baseStart":' .. baseStart .. ',"baseAt":' .. baseAt .. ',"baseChunk":' .. baseChunk .. ',"chunks":' .. chunks ..
  ',"updatedAt":"' .. now .. '","usage":' .. usage .. entryModel .. entrySystem .. entryBase .. '}')
if retention > 0 then
  for _, key in ipairs({ headerKey, messagesKey, versionsKey, appendsKey, blobsKey }) do
    redis.call('EXPIRE', key, retention)
  end
end
local createdAt = h[13]
if version == 0 then createdAt = now end
return { 1, header(nextVersion, messageCount, baseStart, currentSystem, currentModel, usage, createdAt, now, base,
  lastPrompt) }
`,
);
