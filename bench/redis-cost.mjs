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
 * by calls (with their share of the commands' own time). The bench's own INFO calls are left out.
 * @param {RedisSnapshot} before @param {RedisSnapshot} after @param {number} runs
 */
export function redisCostPerRun(before, after, runs, top = 6) {
  const deltas = [];
  for (const [name, { calls, usec }] of after.commands) {
    if (name === 'info') continue;
    const was = before.commands.get(name) ?? { calls: 0, usec: 0 };
    if (calls > was.calls) deltas.push({ name, calls: calls - was.calls, usec: usec - was.usec });
  }
  const calls = deltas.reduce((sum, entry) => sum + entry.calls, 0);
  const usec = deltas.reduce((sum, entry) => sum + entry.usec, 0);
  return {
    cpuMs: round((after.cpuMs - before.cpuMs) / runs, 3),
    commands: round(calls / runs, 1),
    topCommands: Object.fromEntries(
      deltas
        .sort((a, b) => b.calls - a.calls)
        .slice(0, top)
        .map((entry) => [
          entry.name,
          { perRun: round(entry.calls / runs, 1), timeShare: round(entry.usec / usec, 2) },
        ]),
    ),
  };
}

export function round(value, digits) {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
