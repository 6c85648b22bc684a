/** `flotilla runs list`, `flotilla runs tree <runId>` and `flotilla runs export <runId>`. */
import { writeFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { parseRunExport } from '@flotilla/runtime/client';
import { renderRunTable, renderRunTree } from './render-runs.js';
import type { SchedulerApi } from './scheduler-api.js';
import { UsageError } from './usage-error.js';

/** The options `runs` reads (strings as parsed from the command line). */
export interface RunsOptions {
  status?: string | undefined;
  agent?: string | undefined;
  root?: string | undefined;
  conversation?: string | undefined;
  schedule?: string | undefined;
  tenant?: string | undefined;
  limit?: string | undefined;
  cursor?: string | undefined;
  json?: boolean | undefined;
  once?: boolean | undefined;
  interval?: string | undefined;
  out?: string | undefined;
}

/** How often `runs tree` reads the tree again while its root runs. */
const DEFAULT_TREE_INTERVAL_MS = 1000;

/** Runs `runs <list | tree | export>`; returns the exit code. */
export async function runsCommand(
  api: SchedulerApi,
  rest: readonly string[],
  options: RunsOptions,
  stdout: (text: string) => void,
): Promise<number> {
  const [sub, runId] = rest;
  if (sub === 'list') return list(api, options, stdout);
  if (sub === 'tree') {
    if (runId === undefined || runId === '') throw new UsageError('Missing <runId>.');
    return tree(api, runId, options, stdout);
  }
  if (sub === 'export') {
    if (runId === undefined || runId === '') throw new UsageError('Missing <runId>.');
    return exportRun(api, runId, options, stdout);
  }
  throw new UsageError(
    sub === undefined ? 'Missing runs <list | tree | export>.' : `Unknown command "runs ${sub}".`,
  );
}

/**
 * Writes the run export (checked: a scheduler of another version is caught here, not at replay)
 * to `--out`, or prints it.
 */
async function exportRun(
  api: SchedulerApi,
  runId: string,
  options: RunsOptions,
  stdout: (text: string) => void,
): Promise<number> {
  const exported = parseRunExport(await api.exportRun(runId), `the export of run "${runId}"`);
  const text = `${JSON.stringify(exported, null, 2)}\n`;
  if (options.out === undefined) {
    stdout(text);
    return 0;
  }
  await writeFile(options.out, text);
  stdout(
    `${options.out}: run ${exported.run.runId} (${exported.run.agentId}, ${exported.run.status}), ${exported.journal.length} journal entries\n`,
  );
  return 0;
}

async function list(
  api: SchedulerApi,
  options: RunsOptions,
  stdout: (text: string) => void,
): Promise<number> {
  const page = await api.listRuns({
    status: options.status,
    agentId: options.agent,
    rootRunId: options.root,
    conversationId: options.conversation,
    scheduleId: options.schedule,
    tenant: options.tenant,
    limit: options.limit,
    cursor: options.cursor,
  });
  if (options.json) {
    stdout(`${JSON.stringify(page, null, 2)}\n`);
    return 0;
  }
  stdout(`${renderRunTable(page.runs)}\n`);
  if (page.nextCursor !== undefined) stdout(`(more: --cursor ${page.nextCursor})\n`);
  return 0;
}

/**
 * Prints the tree, then again each time it changes, until the root ends (or at once with
 * `--once`); exit 0 when the root succeeded, 1 when it did not (or with `--once`, still runs).
 */
async function tree(
  api: SchedulerApi,
  runId: string,
  options: RunsOptions,
  stdout: (text: string) => void,
): Promise<number> {
  const intervalMs = interval(options.interval);
  let shown = '';
  for (;;) {
    const current = await api.getRunTree(runId);
    const text = renderRunTree(current.root, current.truncated);
    if (text !== shown) {
      // A separator between refreshes keeps captured output readable; a terminal sees the latest last.
      stdout(`${shown === '' ? '' : '\n'}${text}\n`);
      shown = text;
    }
    const status = current.root.status;
    if (status === 'succeeded') return 0;
    if (status === 'failed' || status === 'cancelled' || options.once) return 1;
    await delay(intervalMs);
  }
}

function interval(text: string | undefined): number {
  if (text === undefined) return DEFAULT_TREE_INTERVAL_MS;
  if (!/^\d+$/.test(text) || Number(text) < 100)
    throw new UsageError(`--interval must be a whole number of ms ≥ 100; got "${text}".`);
  return Number(text);
}
