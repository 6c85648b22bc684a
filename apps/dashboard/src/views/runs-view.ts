import { type Fleet, RUN_STATUSES, type RunList, type RunRecord } from '../api-types.ts';
import { h, replaceChildren } from '../dom.ts';
import { formatCount, formatDuration, formatTime, runDuration, statusBadge } from '../format.ts';
import { routes } from '../router.ts';
import { errorAlert, keepFresh, section, type ViewContext } from '../view.ts';

/** How often the table, the counts and the agents refresh. */
const REFRESH_MS = 2000;
/** Counts by status are taken over this many of the newest runs matching the other filters. */
const COUNT_WINDOW = 1000;
/** The filters of `GET /runs` the form offers (the page cursor is handled by the pager). */
const TEXT_FILTERS = [
  ['agentId', 'Agent'],
  ['conversationId', 'Conversation'],
  ['rootRunId', 'Tree (root run id)'],
  ['tenant', 'Tenant'],
] as const;

/**
 * The runs: a live table (status, agent, tenant, started, duration, model calls, tokens) with the
 * list API's filters and pages, counts by status, and the agents the runs name with whether a
 * live worker serves each.
 */
export function runsView(context: ViewContext, query: URLSearchParams): HTMLElement {
  const { api, signal } = context;
  const cursor = query.get('cursor') ?? undefined;
  const filters = Object.fromEntries(
    ['status', 'agentId', 'conversationId', 'rootRunId', 'tenant', 'limit'].map((key) => [
      key,
      query.get(key) ?? undefined,
    ]),
  );
  const counts = h('ul', { class: 'counts', 'aria-label': 'Runs by status' });
  const agents = h('div');
  const table = h('div', { class: 'table-wrap' });
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages' });
  const problem = h('div');

  keepFresh(
    signal,
    REFRESH_MS,
    async () => {
      const page = await api.get<RunList>('/runs', { ...filters, cursor, limit: filters.limit ?? 50 });
      replaceChildren(table, runsTable(page.runs));
      replaceChildren(pager, ...pagerLinks(query, page.nextCursor));
      const window = await api.get<RunList>('/runs', { ...filters, status: undefined, limit: COUNT_WINDOW });
      replaceChildren(counts, ...countItems(window, query));
      const named = [...new Set(window.runs.map((run) => run.agentId))].slice(0, 100);
      const fleet = await api.get<Fleet>('/fleet', { agents: named.join(',') });
      replaceChildren(agents, agentsList(fleet));
      replaceChildren(problem);
    },
    (error) => replaceChildren(problem, errorAlert(error)),
  );

  return h(
    'div',
    { class: 'view' },
    h('h1', {}, 'Runs'),
    problem,
    filterForm(filters),
    section(
      'By status',
      'counts-title',
      h('p', { class: 'help' }, `Among the newest ${COUNT_WINDOW} runs matching the other filters.`),
      counts,
    ),
    section('Runs', 'runs-title', table, pager),
    section('Agents', 'agents-title', agents),
  );
}

function filterForm(filters: Record<string, string | undefined>): HTMLElement {
  const status = h(
    'select',
    { id: 'filter-status', name: 'status' },
    h('option', { value: '' }, 'any'),
    ...RUN_STATUSES.map((value) => h('option', { value, selected: filters.status === value }, value)),
  );
  const inputs = TEXT_FILTERS.map(([name, label]) =>
    h(
      'div',
      { class: 'field' },
      h('label', { for: `filter-${name}` }, label),
      h('input', { id: `filter-${name}`, name, value: filters[name] ?? '', maxlength: 400 }),
    ),
  );
  const form = h(
    'form',
    { class: 'filters', 'aria-label': 'Filter runs' },
    h('div', { class: 'field' }, h('label', { for: 'filter-status' }, 'Status'), status),
    ...inputs,
    h('button', { type: 'submit' }, 'Apply filters'),
    h('a', { href: routes.runs(), class: 'button-link' }, 'Clear'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const [name, value] of new FormData(form))
      if (typeof value === 'string' && value.trim() !== '') next.set(name, value.trim());
    location.hash = routes.runs(next);
  });
  return form;
}

function runsTable(runs: RunRecord[]): HTMLElement {
  if (runs.length === 0) return h('p', {}, 'No runs match.');
  const header = ['Run', 'Status', 'Agent', 'Tenant', 'Started', 'Duration', 'Model calls', 'Tokens'];
  return h(
    'table',
    { class: 'runs' },
    h('caption', { class: 'visually-hidden' }, 'Runs, newest first'),
    h('thead', {}, h('tr', {}, ...header.map((title) => h('th', { scope: 'col' }, title)))),
    h(
      'tbody',
      {},
      ...runs.map((run) =>
        h(
          'tr',
          { 'data-run-id': run.runId },
          h('th', { scope: 'row' }, h('a', { href: routes.run(run.runId) }, run.runId)),
          h(
            'td',
            {},
            statusBadge(run.status),
            run.waitingFor ? h('span', { class: 'waiting-for' }, ` waiting for ${run.waitingFor.kind}`) : '',
          ),
          h('td', {}, run.agentId),
          h('td', {}, run.tenant ?? '—'),
          h('td', {}, formatTime(run.startedAt ?? run.createdAt)),
          h('td', {}, formatDuration(runDuration(run))),
          h('td', { class: 'number' }, formatCount(run.modelCalls)),
          h('td', { class: 'number' }, formatCount(run.usage?.totalTokens)),
        ),
      ),
    ),
  );
}

function countItems(window: RunList, query: URLSearchParams): HTMLElement[] {
  const counts = new Map<string, number>(RUN_STATUSES.map((status) => [status, 0]));
  for (const run of window.runs) counts.set(run.status, (counts.get(run.status) ?? 0) + 1);
  return [...counts].map(([status, count]) => {
    const next = new URLSearchParams(query);
    next.delete('cursor');
    next.set('status', status);
    return h(
      'li',
      {},
      h(
        'a',
        { href: routes.runs(next), 'data-status': status },
        statusBadge(status),
        ` ${count}${window.nextCursor ? '+' : ''}`,
      ),
    );
  });
}

function pagerLinks(query: URLSearchParams, nextCursor: string | undefined): HTMLElement[] {
  const links: HTMLElement[] = [];
  if (query.has('cursor')) {
    const first = new URLSearchParams(query);
    first.delete('cursor');
    links.push(h('a', { href: routes.runs(first) }, 'First page'));
  }
  if (nextCursor) {
    const next = new URLSearchParams(query);
    next.set('cursor', nextCursor);
    links.push(h('a', { href: routes.runs(next), rel: 'next' }, 'Next page'));
  }
  return links;
}

/** The agents served by live workers and those the listed runs name, each with whether a live worker serves it. */
export function agentsList(fleet: Fleet): HTMLElement {
  if (fleet.agents.length === 0) return h('p', {}, 'No agents: no live worker, no runs.');
  return h(
    'ul',
    { class: 'agents', 'aria-label': 'Agents' },
    ...fleet.agents.map((agent) =>
      h(
        'li',
        { 'data-agent-id': agent.agentId },
        h('span', { class: 'agent-name' }, agent.agentId),
        ' ',
        h(
          'span',
          { class: agent.live ? 'served yes' : 'served no' },
          agent.live
            ? `served by ${agent.servedBy.length} live worker${agent.servedBy.length === 1 ? '' : 's'}`
            : 'no live worker',
        ),
      ),
    ),
  );
}
