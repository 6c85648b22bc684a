/**
 * Reading the logs the fence fixtures write (`fixtures/fence-agents.ts`): every attempt start
 * and every `step` tool interval of every worker process, one JSON line each.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FenceLogLine } from './fixtures/fence-agents.js';

export type AttemptLine = Extract<FenceLogLine, { kind: 'attempt' }>;
export type WorkLine = Extract<FenceLogLine, { kind: 'work' }>;

export function readFenceLog(dir: string): { attempts: AttemptLine[]; work: WorkLine[] } {
  const lines = readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as FenceLogLine);
  return {
    attempts: lines.filter((line): line is AttemptLine => line.kind === 'attempt'),
    work: lines.filter((line): line is WorkLine => line.kind === 'work'),
  };
}

/** Pairs of tool executions of one run that overlapped in time (two attempts at once). */
export function overlaps(work: readonly WorkLine[]): [WorkLine, WorkLine][] {
  const found: [WorkLine, WorkLine][] = [];
  const byRun = new Map<string, WorkLine[]>();
  for (const line of work) byRun.set(line.runId, [...(byRun.get(line.runId) ?? []), line]);
  for (const lines of byRun.values()) {
    const sorted = [...lines].sort((a, b) => a.start - b.start);
    for (let index = 1; index < sorted.length; index++) {
      const [before, after] = [sorted[index - 1], sorted[index]];
      if (before && after && after.start < before.end) found.push([before, after]);
    }
  }
  return found;
}
