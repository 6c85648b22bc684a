import type { Fleet, WorkerInfo } from '../api-types.ts';
import { h, replaceChildren } from '../dom.ts';
import { formatCount, formatTime } from '../format.ts';
import { errorAlert, keepFresh, section, type ViewContext } from '../view.ts';

const REFRESH_MS = 2000;

/** The fleet: live workers (agents, concurrency, active runs, heartbeat) and each agent's queue depth. */
export function fleetView(context: ViewContext): HTMLElement {
  const workers = h('div', { class: 'table-wrap' });
  const agents = h('div', { class: 'table-wrap' });
  const problem = h('div');
  keepFresh(
    context.signal,
    REFRESH_MS,
    async () => {
      const fleet = await context.api.get<Fleet>('/fleet');
      replaceChildren(workers, workersTable(fleet));
      replaceChildren(agents, agentsTable(fleet));
      replaceChildren(problem);
    },
    (error) => replaceChildren(problem, errorAlert(error)),
  );
  return h(
    'div',
    { class: 'view' },
    h('h1', {}, 'Fleet'),
    problem,
    section('Workers', 'workers-title', workers),
    section('Agents and queues', 'queues-title', agents),
  );
}

function table(caption: string, header: string[], rows: HTMLElement[]): HTMLElement {
  return h(
    'table',
    {},
    h('caption', { class: 'visually-hidden' }, caption),
    h('thead', {}, h('tr', {}, ...header.map((title) => h('th', { scope: 'col' }, title)))),
    h('tbody', {}, ...rows),
  );
}

function workersTable(fleet: Fleet): HTMLElement {
  if (fleet.workers.length === 0) return h('p', {}, 'No live worker.');
  return table(
    'Live workers',
    ['Worker', 'Host', 'PID', 'Agents', 'Concurrency', 'Active runs', 'Build', 'Last heartbeat'],
    fleet.workers.map((worker) =>
      h(
        'tr',
        { 'data-worker-id': worker.workerId },
        h('th', { scope: 'row', class: 'mono' }, worker.workerId),
        h('td', {}, worker.host),
        h('td', {}, String(worker.pid)),
        h('td', {}, worker.agents.join(', ')),
        h('td', { class: 'number' }, formatCount(worker.concurrency)),
        h('td', { class: 'number' }, formatCount(worker.activeRuns)),
        h('td', {}, buildCell(worker)),
        h('td', {}, formatTime(worker.heartbeatAt)),
      ),
    ),
  );
}

function agentsTable(fleet: Fleet): HTMLElement {
  if (fleet.agents.length === 0) return h('p', {}, 'No agent is served.');
  return table(
    'Agents and their queues',
    ['Agent', 'Live worker', 'Waiting', 'Active', 'Delayed', 'Waiting for children'],
    fleet.agents.map((agent) =>
      h(
        'tr',
        { 'data-agent-id': agent.agentId },
        h('th', { scope: 'row' }, agent.agentId),
        h(
          'td',
          { class: agent.live ? 'served yes' : 'served no' },
          agent.live ? `yes (${agent.servedBy.length})` : 'no',
        ),
        h('td', { class: 'number' }, formatCount(agent.queue.waiting)),
        h('td', { class: 'number' }, formatCount(agent.queue.active)),
        h('td', { class: 'number' }, formatCount(agent.queue.delayed)),
        h('td', { class: 'number' }, formatCount(agent.queue.waitingChildren)),
      ),
    ),
  );
}

/** Its build, marked when it pins runs, with the agents whose new runs it leaves to a newer build. */
function buildCell(worker: WorkerInfo): string {
  if (worker.buildId === undefined) return '—';
  if (worker.versioning !== 'pinned') return worker.buildId;
  const draining = worker.draining?.length ? `, draining ${worker.draining.join(', ')}` : '';
  return `${worker.buildId} (pinned${draining})`;
}
