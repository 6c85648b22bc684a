/**
 * `flotilla replay <file…> --agents <module>`: replays the agents of the current code (an agent
 * module, as `FLOTILLA_AGENTS` names them for a worker: `agents` and optional `models` exports)
 * against run exports (`flotilla runs export`), in this process — no scheduler, Redis or model
 * needed. Prints one line per file and, for a divergence, its position and both fingerprints;
 * exit 1 when any file diverges or cannot be replayed.
 */
import { readFile } from 'node:fs/promises';
import type { AnyAgent } from '@flotilla/runtime';
import { type ReplayResult, readRunExport, replayRun } from '@flotilla/runtime/testing';
import { loadAgentModules } from '@flotilla/worker';
import { UsageError } from './usage-error.js';

/** Replays every file; returns the exit code. */
export async function replayCommand(
  files: readonly string[],
  modules: readonly string[],
  io: { stdout(text: string): void; stderr(text: string): void },
): Promise<number> {
  if (files.length === 0)
    throw new UsageError('Missing <file…>: run exports to replay (flotilla runs export).');
  if (modules.length === 0)
    throw new UsageError('Missing --agents <module>: the module that exports the agents.');
  const { agents, models } = await loadAgentModules(modules);
  const byId = new Map<string, AnyAgent>(agents.map((agent) => [agent.id, agent]));
  let failed = 0;
  for (const file of files) {
    try {
      const exported = readRunExport(await readFile(file, 'utf8'), file);
      const agent = byId.get(exported.run.agentId);
      if (!agent) {
        io.stderr(`${file}: no agent "${exported.run.agentId}" in ${modules.join(', ')}\n`);
        failed += 1;
        continue;
      }
      const result = await replayRun(agent, exported, { models });
      io.stdout(describe(file, exported.run.runId, result));
      if (!result.ok) failed += 1;
    } catch (error) {
      io.stderr(`${file}: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}\n`);
      failed += 1;
    }
  }
  return failed === 0 ? 0 : 1;
}

function describe(file: string, runId: string, result: ReplayResult): string {
  const { divergence } = result;
  if (!divergence) {
    const extent = result.complete ? 'to its end' : 'up to where the recorded run stopped';
    return `ok ${file} (run ${runId}): replayed ${result.servedSteps} steps ${extent}\n`;
  }
  const lines = [`DIVERGED ${file} (run ${runId}): ${divergence.kind} at ${divergence.position}`];
  if (divergence.recorded)
    lines.push(`  recorded: ${divergence.recorded.kind} ${divergence.recorded.fingerprint}`);
  if (divergence.current)
    lines.push(`  current:  ${divergence.current.kind} ${divergence.current.fingerprint}`);
  if (divergence.changed.length > 0) lines.push(`  changed:  ${divergence.changed.join(', ')}`);
  lines.push(`  ${divergence.message}`);
  return `${lines.join('\n')}\n`;
}
