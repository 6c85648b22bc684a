import type { RunList, RunRecord } from '../api-types.ts';
import { h, jsonBlock, replaceChildren } from '../dom.ts';
import { formatTime } from '../format.ts';
import { routes } from '../router.ts';
import { errorAlert, keepFresh, type ViewContext } from '../view.ts';

const REFRESH_MS = 2000;
/** The newest waiting runs looked at on each refresh (the list API's largest page is 1000). */
const WAITING_RUNS = 200;
/** How long an answered call stays listed (with its outcome) after its run stopped waiting on it. */
const ANSWERED_SHOWN_MS = 10_000;

/** One tool call awaiting a person: from a waiting run's `waits` (kind `approval`). */
interface PendingApproval {
  runId: string;
  agentId: string;
  createdAt: number;
  callId: string;
  tool: string;
  args: unknown;
}

/**
 * The tool calls awaiting a person's approval (`needsApproval` tools), across the newest waiting
 * runs, each with approve and reject buttons (`POST /runs/{id}/approvals/{callId}`). Rows are
 * kept by run and call across refreshes, so a reason being typed is not lost; an answered one
 * stays a few seconds with its outcome.
 */
export function approvalsView(context: ViewContext): HTMLElement {
  const { api, signal } = context;
  const rows = new Map<string, HTMLElement>();
  const list = h('ul', { class: 'approvals', 'aria-label': 'Pending approvals' });
  const empty = h('p', { class: 'help' }, 'Loading…');
  const problem = h('div');

  keepFresh(
    signal,
    REFRESH_MS,
    async () => {
      const page = await api.get<RunList>('/runs', { status: 'waiting', limit: WAITING_RUNS });
      const pending = page.runs.flatMap(pendingApprovals);
      const current = new Set(pending.map(keyOf));
      for (const [key, row] of rows)
        if (!current.has(key) && Date.now() - Number(row.dataset.answeredAt ?? 0) > ANSWERED_SHOWN_MS) {
          row.remove();
          rows.delete(key);
        }
      for (const approval of pending) {
        if (rows.has(keyOf(approval))) continue;
        const row = approvalItem(context, approval);
        rows.set(keyOf(approval), row);
        list.append(row);
      }
      replaceChildren(empty, rows.size === 0 ? 'No tool call awaits approval.' : '');
      replaceChildren(problem);
    },
    (error) => replaceChildren(problem, errorAlert(error)),
  );

  return h(
    'div',
    { class: 'view' },
    h('h1', {}, 'Approvals'),
    h(
      'p',
      { class: 'help' },
      'Tool calls waiting for a person. Approved, the tool runs once; rejected, it never runs and the model reads the reason.',
    ),
    problem,
    empty,
    list,
  );
}

function keyOf(approval: PendingApproval): string {
  return `${approval.runId}/${approval.callId}`;
}

/** The approval waits of a run's record (an `info` without a call id or tool is skipped). */
function pendingApprovals(run: RunRecord): PendingApproval[] {
  return (run.waits ?? []).flatMap((wait) => {
    const { callId, tool, args } = wait.info ?? {};
    if (wait.waitingFor.kind !== 'approval' || typeof callId !== 'string' || typeof tool !== 'string')
      return [];
    return [{ runId: run.runId, agentId: run.agentId, createdAt: run.createdAt, callId, tool, args }];
  });
}

function approvalItem(context: ViewContext, approval: PendingApproval): HTMLElement {
  const id = `approval-${approval.runId}-${approval.callId}`.replace(/[^\w-]/g, '_');
  const reason = h('input', { id: `${id}-reason`, name: 'reason', type: 'text', maxlength: 4096 });
  const status = h('p', { role: 'status', 'aria-live': 'polite' });
  const approve = h('button', { type: 'button' }, 'Approve');
  const reject = h('button', { type: 'button', class: 'danger' }, 'Reject');
  const item = h(
    'li',
    {
      class: 'approval',
      'aria-labelledby': `${id}-title`,
      'data-run-id': approval.runId,
      'data-call-id': approval.callId,
    },
    h('h2', { id: `${id}-title` }, `${approval.tool} in run ${approval.runId}`),
    h(
      'p',
      {},
      'Agent ',
      approval.agentId,
      ', call ',
      h('code', {}, approval.callId),
      ', run created ',
      formatTime(approval.createdAt),
      ' · ',
      h('a', { href: routes.run(approval.runId) }, 'open the run'),
    ),
    jsonBlock(approval.args, `Arguments of ${approval.tool}`),
    h(
      'div',
      { class: 'actions' },
      h('label', { for: `${id}-reason` }, 'Reason (sent to the model when rejected)'),
      reason,
      approve,
      reject,
    ),
    status,
  );
  const answer = async (approved: boolean) => {
    approve.disabled = true;
    reject.disabled = true;
    const path = `/runs/${encodeURIComponent(approval.runId)}/approvals/${encodeURIComponent(approval.callId)}`;
    const text = reason.value.trim();
    try {
      await context.api.post(path, { approved, ...(text !== '' && { reason: text }) });
      item.dataset.answeredAt = String(Date.now());
      replaceChildren(status, approved ? 'Approved: the run goes on.' : 'Rejected: the tool will not run.');
    } catch (error) {
      approve.disabled = false;
      reject.disabled = false;
      replaceChildren(status, errorAlert(error));
    }
  };
  approve.addEventListener('click', () => void answer(true));
  reject.addEventListener('click', () => void answer(false));
  return item;
}
