import type { RunEvent, RunRecord, RunTree } from '../api-types.ts';
import { h, jsonBlock, replaceChildren } from '../dom.ts';
import { followRunEvents } from '../follow-run-events.ts';
import { formatCount, formatDuration, formatTime, runDuration, statusBadge } from '../format.ts';
import { routes } from '../router.ts';
import { errorAlert, keepFresh, section, type ViewContext } from '../view.ts';
import { confirmDialog } from './confirm-dialog.ts';
import { errorLine, RunTimeline } from './run-timeline.ts';
import { runTreeElement } from './run-tree.ts';

/** How often the record and the tree are read while the run is not over (child runs have their own streams). */
const REFRESH_MS = 1000;
const TERMINAL = new Set(['succeeded', 'failed', 'cancelled']);

/**
 * A run: its record (status, typed error, input, output), the tree of child runs (live while it
 * runs), the timeline of its events (live over SSE) and a cancel button with a confirmation.
 */
export function runView(context: ViewContext, runId: string): HTMLElement {
  const { api, signal } = context;
  const summary = h('dl', { class: 'summary' });
  const actions = h('div', { class: 'actions' });
  const problem = h('div');
  const errorPlace = h('div');
  const input = h('div', {}, h('p', { class: 'help' }, 'Arrives with the run-start event.'));
  const output = h('div');
  const tree = h('div');
  const timeline = new RunTimeline();
  const streamState = h('p', { class: 'help', 'aria-live': 'polite' }, 'Connecting to the event stream…');
  const collapsed = new Set<string>();
  let ended = false;

  const refresh = async () => {
    const record = await api.get<RunRecord>(`/runs/${encodeURIComponent(runId)}`);
    renderRecord(record);
    const root = record.rootRunId ?? runId;
    replaceChildren(
      tree,
      runTreeElement(await api.get<RunTree>(`/runs/${encodeURIComponent(root)}/tree`), collapsed),
    );
    replaceChildren(problem);
    const treeOver = !tree.querySelector(
      '[data-status="queued"],[data-status="running"],[data-status="waiting"]',
    );
    return !(ended && TERMINAL.has(record.status) && treeOver);
  };

  const renderRecord = (record: RunRecord) => {
    replaceChildren(
      summary,
      ...pair(
        'Status',
        statusBadge(record.status),
        record.waitingFor ? ` waiting for ${record.waitingFor.kind}: ${record.waitingFor.detail}` : '',
      ),
      ...pair('Agent', record.agentId),
      ...pair('Tenant', record.tenant ?? '—'),
      ...pair('Started', formatTime(record.startedAt ?? record.createdAt)),
      ...pair('Duration', formatDuration(runDuration(record))),
      ...pair('Model calls', formatCount(record.modelCalls)),
      ...pair(
        'Tokens',
        `${formatCount(record.usage?.totalTokens)} (${formatCount(record.usage?.promptTokens)} in, ${formatCount(record.usage?.completionTokens)} out)`,
      ),
      ...pair('Attempts', formatCount(record.attempts)),
      ...(record.pinnedBuild || record.buildId
        ? pair('Build', record.pinnedBuild ? `${record.pinnedBuild} (pinned)` : (record.buildId ?? ''))
        : []),
      ...(record.parentRunId
        ? pair('Parent', h('a', { href: routes.run(record.parentRunId) }, record.parentRunId))
        : []),
      ...(record.conversationId
        ? pair(
            'Conversation',
            h('a', { href: routes.conversation(record.conversationId) }, record.conversationId),
          )
        : []),
    );
    replaceChildren(
      errorPlace,
      record.error
        ? h('div', { class: 'alert', role: 'alert' }, 'This run failed: ', errorLine(record.error))
        : '',
    );
    replaceChildren(
      output,
      record.output === undefined
        ? h('p', { class: 'help' }, TERMINAL.has(record.status) ? 'No output.' : 'Not yet.')
        : jsonBlock(record.output, 'Run output'),
    );
    replaceChildren(actions, TERMINAL.has(record.status) ? '' : cancelButton(record));
  };

  const cancelButton = (record: RunRecord) =>
    h(
      'button',
      {
        type: 'button',
        class: 'danger',
        onclick: () => {
          const children = tree.querySelectorAll('li[data-run-id]').length - 1;
          void confirmDialog({
            title: `Cancel run ${record.runId}?`,
            body: `The run${children > 0 ? ` and its ${children} child run${children === 1 ? '' : 's'}` : ''} will be cancelled. This cannot be undone.`,
            confirm: 'Cancel the run',
            dismiss: 'Keep it running',
          }).then(async (confirmed) => {
            if (!confirmed) return;
            try {
              await api.post(`/runs/${encodeURIComponent(record.runId)}/cancel`);
              replaceChildren(problem, h('p', { role: 'status' }, 'Cancel requested.'));
            } catch (error) {
              replaceChildren(problem, errorAlert(error));
            }
          });
        },
      },
      'Cancel run…',
    );

  keepFresh(signal, REFRESH_MS, refresh, (error) => replaceChildren(problem, errorAlert(error)));
  followRunEvents(api, runId, {
    signal,
    onEvent: (event: RunEvent) => {
      timeline.add(event);
      if (event.type === 'run-start') replaceChildren(input, jsonBlock(event.input, 'Run input'));
      if (event.type === 'run-end') ended = true;
    },
    onState: (state, error) =>
      replaceChildren(
        streamState,
        state === 'live'
          ? 'Live.'
          : state === 'ended'
            ? 'The run has ended.'
            : `Reconnecting (${String(error)})…`,
      ),
  }).catch((error: unknown) => replaceChildren(streamState, errorAlert(error)));

  return h(
    'div',
    { class: 'view' },
    h('h1', {}, 'Run ', h('span', { class: 'mono' }, runId)),
    problem,
    errorPlace,
    actions,
    summary,
    section('Tree', 'tree-title', tree),
    section('Timeline', 'timeline-title', streamState, timeline.element),
    section('Input', 'input-title', input),
    section('Output', 'output-title', output),
  );
}

function pair(term: string, ...value: (Node | string)[]): HTMLElement[] {
  return [h('dt', {}, term), h('dd', {}, ...value)];
}
