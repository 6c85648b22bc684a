/**
 * What Redis spent between two snapshots: CPU (`INFO cpu`, `used_cpu_sys` + `used_cpu_user`, the
 * whole server process) and commands (`INFO commandstats`: calls and microseconds per command,
 * commands called from Lua scripts included). Meaningful on a Redis nobody else uses (the cost
 * bench starts a private one).
 */

/** @typedef {{ cpuMs: number, commands: Map<string, { calls: number, usec: number }> }} RedisSnapshot */

/** @param {import('ioredis').Redis} redis @returns {Promise<RedisSnapshot>} */
export async function redisSnapshot(redis) {
  const [cpu, stats] = await Promise.all([redis.info('cpu'), redis.info('commandstats')]);
  const field = (name) => Number(new RegExp(`${name}:([\\d.]+)`).exec(cpu)?.[1] ?? 0);
  const commands = new Map();
  for (const line of stats.split('\n')) {
    const match = /^cmdstat_([^:]+):calls=(\d+),usec=(\d+)/.exec(line);
    if (match) commands.set(match[1], { calls: Number(match[2]), usec: Number(match[3]) });
  }
  return { cpuMs: (field('used_cpu_sys') + field('used_cpu_user')) * 1000, commands };
}

/**
 * Redis' cost per run between `before` and `after`: CPU ms, commands, and the `top` commands
 * by their own time (calls and µs per run). The bench's own two INFO calls counted
 * between the snapshots are left out (a connection's ready check is an INFO too, and counts).
 * @param {RedisSnapshot} before @param {RedisSnapshot} after @param {number} runs
 */
export function redisCostPerRun(before, after, runs, top = Number(process.env.BENCH_TOP_COMMANDS ?? 6)) {
  const deltas = [];
  for (const [name, { calls, usec }] of after.commands) {
    const was = before.commands.get(name) ?? { calls: 0, usec: 0 };
    const own = name === 'info' ? 2 : 0;
    if (calls - own > was.calls) deltas.push({ name, calls: calls - was.calls - own, usec: usec - was.usec });
  }
  const calls = deltas.reduce((sum, entry) => sum + entry.calls, 0);
  const usec = deltas.reduce((sum, entry) => sum + entry.usec, 0);
  return {
    cpuMs: round((after.cpuMs - before.cpuMs) / runs, 3),
    commands: round(calls / runs, 1),
    /** The commands' own time (`usec` in commandstats), without Redis' I/O and event loop. */
    commandUs: round(usec / runs, 1),
    topCommands: Object.fromEntries(
      deltas
        .sort((a, b) => b.usec - a.usec)
        .slice(0, top)
        .map((entry) => [
          entry.name,
          { calls: round(entry.calls / runs, 1), us: round(entry.usec / runs, 1) },
        ]),
    ),
  };
}

export function round(value, digits) {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
