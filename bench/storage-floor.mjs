/**
 * The storage floor of the cost bench (`BENCH_FLOOR=1`): what a run's durable writes cost with no
 * Flotilla code at all. It answers one question: could any implementation that stores what a
 * Flotilla run stores reach the throughput goal, however lean its code?
 *
 * How: one Flotilla run of the shape is made under `MONITOR`, and every command our scripts ran
 * for it (create-run, register-writer, index-runs on the client; start-run, write-run,
 * append-conversation, finish-run, leave-writer on the worker; for a tree, those of all its runs)
 * is kept with its exact arguments, grouped by script call. The floor system is raw BullMQ (the
 * same processor, the same client awaiting each job with `waitUntilFinished`) that also sends
 * those groups, with the run's and conversation's ids replaced by fresh ones: one call per script
 * call of ours, to a script that only runs the commands it is given, sent through the runtime's
 * own `LuaScript` on connections given `coalesceWrites`, as ours are. Same round trips, keys,
 * commands and bytes; none of our Lua logic, serialisation, journal, events read by the client,
 * or replay. BullMQ's own commands are not copied (the floor runs BullMQ itself).
 *
 * Generous by construction: its client reads no run events, and a tree's writes all go out from
 * its root's first step, one after another, with no parent suspended and replayed.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from '@flotilla/runtime/client';
import { coalesceWrites, LuaScript } from '@flotilla/runtime/internals';
import { createWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { benchModel, flotillaAgents, flotillaSubmission } from './cost-shapes.mjs';
import { openMonitor } from './redis-monitor.mjs';

export const FLOOR_SHAPES = ['one-turn', 'conversation', 'fanout'];

// The shapes of a template and its groups are declared once, in storage-floor.d.mts.

const isOurs = (key) => /:(run:\{r:|conv:\{c:|runs:\{x:)/.test(key);

/**
 * Makes one Flotilla run of `shape` on `url` (after one warm-up run) and returns the commands
 * our scripts ran for it (for a tree: for all its runs), grouped by script call and side. Its keys
 * stay under `prefix` (default: a fresh `bench-floor-capture:*` one).
 * @param {{ prefix?: string, quietMs?: number, timeoutMs?: number }} [options]
 * @returns {Promise<FloorTemplate>}
 */
export async function captureFloorTemplate(shape, url, options = {}) {
  const prefix = options.prefix ?? `bench-floor-capture:${randomUUID().slice(0, 8)}`;
  const worker = createWorker({
    agents: flotillaAgents[shape],
    models: { 'bench-model': benchModel() },
    connection: url,
    prefix,
    queueName: 'agents',
    concurrency: 1,
    logger: pino({ level: 'silent' }),
    env: {},
  });
  const client = createClient({ connection: url, prefix, queueName: 'agents', env: {} });
  /** @type {{ args: string[], lua: boolean, at: number }[]} */
  const seen = [];
  let monitor;
  try {
    await worker.waitUntilReady();
    // A warm-up run first (in a conversation of its own): scripts loaded, the worker registered,
    // the queue's keys made, so the captured run writes only what every run writes.
    const warmUp = flotillaSubmission(shape);
    await (await client.submit(warmUp.agent, warmUp.input, warmUp.options)).result();
    const { agent, input, options: submitOptions } = flotillaSubmission(shape);
    monitor = await openMonitor(url, (args, source) =>
      seen.push({ args, lua: source === 'lua', at: performance.now() }),
    );
    const handle = await client.submit(agent, input, submitOptions);
    await handle.result();
    const conversationId = submitOptions?.conversationId;
    // A tree's child runs are named after its root (`<root id>.<hash>`), so the root's id and the
    // conversation's are all a new run needs replaced.
    const ids = [handle.id, ...(conversationId ? [conversationId] : [])];
    // The worker's last calls (leave-writer) follow the finish the result came from: wait until
    // MONITOR has reported nothing of the run for `quietMs`.
    await quietAbout(seen, ids, options.quietMs ?? 150, options.timeoutMs ?? 10_000);
    return { prefix, ids, groups: groupsOf(seen, handle.id, ids) };
  } finally {
    monitor?.close();
    await client.close();
    await worker.close();
  }
}

const mentionsAny = (args, ids) => args.some((arg) => ids.some((id) => arg.includes(id)));

async function quietAbout(seen, ids, quietMs, timeoutMs) {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const last = seen.findLast((command) => mentionsAny(command.args, ids))?.at ?? 0;
    const now = performance.now();
    if (now - last >= quietMs) return;
    if (now > deadline)
      throw new Error(`storage floor: the run's commands did not stop within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, quietMs / 3));
  }
}

/** Our script calls for the runs, in order: a group per `evalsha` whose first key is ours. */
function groupsOf(seen, rootId, ids) {
  const groups = [];
  let current;
  let added = false;
  for (const { args, lua } of seen) {
    if (!lua) {
      current = undefined;
      const name = args[0].toLowerCase();
      if ((name === 'evalsha' || name === 'eval') && isOurs(args[3] ?? '') && mentionsAny(args, ids)) {
        current = { side: added ? 'worker' : 'client', commands: [] };
        groups.push(current);
      }
      continue;
    }
    // BullMQ's add of the root's job: everything before it was the client's submit.
    if (!added && args[0].toUpperCase() === 'LPUSH' && args[2] === rootId) added = true;
    current?.commands.push(args);
  }
  return groups.filter((group) => group.commands.length > 0);
}

/**
 * What a design that stored less would send, as variants of the captured writes:
 *   - `as-stored`: everything a run writes today;
 *   - `no-events`: without the run's event stream, its timeline copy and its end notice;
 *   - `no-gate-index`: without the conversation's writer gate and the run lists' index;
 *   - `one-write`: the worker's first call kept (start-run, or a child's index), every later one
 *     merged into one call at the end, as if no step were durable before the run ends;
 *   - `lean`: all three.
 */
export const FLOOR_VARIANTS = ['as-stored', 'no-events', 'no-gate-index', 'one-write', 'lean'];

/** A run's event stream, its timeline, and the channel its end is published on (`runEndChannel`). */
const EVENT_KEY = /:run:\{r:[^}]*\}:(events|timeline|events:end)$/;
const GATE_OR_INDEX_KEY = /(:conv:\{c:[^}]*\}:gate:|:runs:\{x:)/;

/** The template as `variant` would write it (see FLOOR_VARIANTS). */
export function floorVariant(template, variant) {
  if (!FLOOR_VARIANTS.includes(variant)) throw new Error(`no storage floor variant "${variant}"`);
  const drop = (pattern) => (group) => ({
    ...group,
    commands: group.commands.filter((command) => !command.slice(1).some((arg) => pattern.test(arg))),
  });
  let groups = template.groups;
  if (variant === 'no-events' || variant === 'lean') groups = groups.map(drop(EVENT_KEY));
  if (variant === 'no-gate-index' || variant === 'lean') groups = groups.map(drop(GATE_OR_INDEX_KEY));
  groups = groups.filter((group) => group.commands.length > 0);
  if (variant === 'one-write' || variant === 'lean') {
    const worker = groups.filter((group) => group.side === 'worker');
    const [start, ...steps] = worker;
    const merged =
      steps.length > 0 ? [{ side: 'worker', commands: steps.flatMap((group) => group.commands) }] : [];
    groups = [...groups.filter((group) => group.side === 'client'), ...(start ? [start] : []), ...merged];
  }
  return { ...template, groups };
}

/** The ids a new run (tree) of the template is written under: its root's, then its conversation's if it has one. */
export function floorIds(template, rootId, conversationId) {
  return [rootId, conversationId].slice(0, template.ids.length);
}

/**
 * The writer of one side's calls for runs under `prefix`: given a run's ids (`floorIds`), each call's
 * script arguments (`count name arg…` per command). Every argument is cut once, here, into text and
 * the places the captured prefix and ids stood, so a run only joins its pieces: replacing them with
 * `split`/`join` on every argument cost ~150 µs per conversational run (~500 per tree), CPU that
 * Flotilla does not spend and that would have pulled the floor down.
 * @param {import('./storage-floor.d.mts').FloorTemplate} template
 * @param {'client' | 'worker'} side
 * @param {string} prefix
 * @returns {(ids: string[]) => string[][]}
 */
export function floorWriter(template, side, prefix) {
  const literal = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const places = new RegExp([template.prefix, ...template.ids].map(literal).join('|'), 'g');
  // A piece is a text, or a number: -1 for the prefix, k for the template's id k.
  const piecesOf = (arg) => {
    const pieces = [];
    let last = 0;
    for (const match of arg.matchAll(places)) {
      pieces.push(
        arg.slice(last, match.index),
        match[0] === template.prefix ? -1 : template.ids.indexOf(match[0]),
      );
      last = match.index + match[0].length;
    }
    if (pieces.length === 0) return arg;
    pieces.push(arg.slice(last));
    return pieces;
  };
  const calls = template.groups
    .filter((group) => group.side === side)
    .map((group) => group.commands.flatMap((command) => [String(command.length), ...command.map(piecesOf)]));
  return (ids) =>
    calls.map((call) =>
      call.map((arg) => {
        if (typeof arg === 'string') return arg;
        let text = '';
        for (const piece of arg)
          text += typeof piece === 'string' ? piece : piece === -1 ? prefix : ids[piece];
        return text;
      }),
    );
}

// Runs the commands it is given, in order: `count name arg…` for each. The keys are passed as
// plain arguments, so this only runs on a single Redis (the floor is a measurement, not a design).
const BATCH = new LuaScript(
  'floor-batch',
  0,
  `local i = 1
while i <= #ARGV do
  local n = tonumber(ARGV[i])
  redis.call(unpack(ARGV, i + 1, i + n))
  i = i + n + 1
end
return 1`,
);

/** `redis`, its writes of one tick sent together as a Flotilla worker's and client's are. */
export function coalesced(redis) {
  coalesceWrites(redis);
  return redis;
}

/**
 * Sends each call (a `floorWriter`'s) as one script call, one after another, as our scripts are
 * sent (the runtime's own `LuaScript`, on a connection given `coalesceWrites` as ours are): the
 * same round trips and Redis commands, with a script that only runs what it is given.
 */
export async function sendCalls(redis, calls) {
  for (const args of calls) await BATCH.run(redis, [], args);
}
