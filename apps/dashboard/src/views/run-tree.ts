import type { RunTree, RunTreeNode } from '../api-types.ts';
import { h } from '../dom.ts';
import { formatCount, formatDuration, statusBadge } from '../format.ts';
import { routes } from '../router.ts';

/**
 * A run tree as nested, collapsible lists: each run with children is a `<details>` (keyboard
 * and screen reader friendly without script), its summary the run's status, agent, id, duration
 * and tokens. `collapsed` keeps what the reader closed across live refreshes.
 */
export function runTreeElement(tree: RunTree, collapsed: Set<string>): HTMLElement {
  return h(
    'div',
    { class: 'tree' },
    h('ul', { class: 'tree-root', 'aria-label': 'Run tree' }, treeItem(tree.root, collapsed, 1)),
    tree.truncated
      ? h('p', { class: 'help' }, `Showing the first ${tree.nodeCount} runs of a larger tree.`)
      : '',
  );
}

function treeItem(node: RunTreeNode, collapsed: Set<string>, level: number): HTMLElement {
  const line = h(
    'span',
    { class: 'tree-line' },
    statusBadge(node.status),
    ' ',
    h('span', { class: 'agent-name' }, node.agentId),
    ' ',
    h('a', { href: routes.run(node.runId) }, node.runId),
    ' ',
    h(
      'span',
      { class: 'meta' },
      `${formatDuration(node.durationMs)} · ${formatCount(node.modelCalls)} model calls · ${formatCount(node.usage?.totalTokens)} tokens`,
    ),
    node.waitingFor
      ? h(
          'span',
          { class: 'waiting-for' },
          ` · waiting for ${node.waitingFor.kind}: ${node.waitingFor.detail}`,
        )
      : '',
  );
  const attributes = { 'data-run-id': node.runId, 'data-status': node.status, 'data-level': level };
  if (node.children.length === 0) return h('li', attributes, line);
  // The summary holds no link (interactive content may not nest): it only opens and closes.
  const count = node.children.length;
  const details = h(
    'details',
    { open: !collapsed.has(node.runId) },
    h(
      'summary',
      { 'aria-label': `${count} child run${count === 1 ? '' : 's'} of ${node.runId}` },
      `${count} child run${count === 1 ? '' : 's'}`,
    ),
    h('ul', {}, ...node.children.map((child) => treeItem(child, collapsed, level + 1))),
  );
  details.addEventListener('toggle', () => {
    if (details.open) collapsed.delete(node.runId);
    else collapsed.add(node.runId);
  });
  return h('li', attributes, line, details);
}
