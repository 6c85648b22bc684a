/** How the CLI prints run lists (a table) and run trees (indented lines). Pure, for tests. */
import type { RunRecord, RunTreeNode } from '@flotilla/runtime/client';

/** A table of runs: one line per run, columns padded to their widest cell. */
export function renderRunTable(runs: readonly RunRecord[]): string {
  const rows = [
    ['RUN', 'AGENT', 'STATUS', 'CREATED', 'MODEL CALLS', 'BUILD', 'WAITING FOR'],
    ...runs.map((run) => [
      run.runId,
      run.agentId,
      run.status,
      new Date(run.createdAt).toISOString(),
      String(run.modelCalls),
      buildOf(run),
      run.waitingFor ? `${run.waitingFor.kind}: ${run.waitingFor.detail}` : '',
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The build a run is pinned to (`name (pinned)`), else the one that started it, else `-`. */
function buildOf(run: RunRecord): string {
  if (run.pinnedBuild !== undefined) return `${run.pinnedBuild} (pinned)`;
  return run.buildId ?? '-';
}

/** A run tree as indented lines: `runId agent status …`, children two spaces further in. */
export function renderRunTree(root: RunTreeNode, truncated = false): string {
  const lines: string[] = [];
  const walk = (node: RunTreeNode, depth: number) => {
    lines.push(`${'  '.repeat(depth)}${depth > 0 ? '└ ' : ''}${describeNode(node)}`);
    for (const child of node.children) walk(child, depth + 1);
  };
  walk(root, 0);
  if (truncated) lines.push('… (more runs than shown: the tree was truncated)');
  return lines.join('\n');
}

function describeNode(node: RunTreeNode): string {
  const parts = [node.runId, node.agentId, node.status];
  if (node.waitingFor) parts.push(`waiting for ${node.waitingFor.kind}: ${node.waitingFor.detail}`);
  if (node.attempts > 1) parts.push(`attempts ${node.attempts}`);
  parts.push(`${node.modelCalls} model calls`, `${node.usage.totalTokens} tokens`);
  if (node.durationMs !== undefined) parts.push(`${(node.durationMs / 1000).toFixed(1)} s`);
  if (node.progress !== undefined) parts.push(`progress ${JSON.stringify(node.progress).slice(0, 120)}`);
  return parts.join('  ');
}
