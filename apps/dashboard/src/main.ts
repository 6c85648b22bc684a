/**
 * The Flotilla dashboard: a login form, then hash-routed views (runs, a run, a conversation, the
 * fleet, the tool calls awaiting a person's approval) built with `dom.ts` (text only, never HTML). Each view gets a signal that aborts its
 * polling and event stream when the reader leaves it.
 */
import './style.css';
import type { ApiClient } from './api-client.ts';
import { h, replaceChildren } from './dom.ts';
import { parseRoute, routes } from './router.ts';
import type { ViewContext } from './view.ts';
import { approvalsView } from './views/approvals-view.ts';
import { conversationView } from './views/conversation-view.ts';
import { fleetView } from './views/fleet-view.ts';
import { loginView } from './views/login-view.ts';
import { runView } from './views/run-view.ts';
import { runsView } from './views/runs-view.ts';

const root = document.getElementById('app') as HTMLElement;
let api: ApiClient | undefined;
let leave = new AbortController();

function signIn(): void {
  leave.abort();
  api = undefined;
  document.title = 'Sign in · Flotilla dashboard';
  replaceChildren(
    root,
    loginView((signedIn) => {
      api = signedIn;
      render();
    }, signIn),
  );
}

/** The navigation: one link per top-level view. */
function navigation(current: string): HTMLElement {
  const link = (href: string, label: string, view: string) =>
    h('li', {}, h('a', { href, 'aria-current': current === view ? 'page' : undefined }, label));
  return h(
    'header',
    { class: 'top' },
    h('span', { class: 'brand' }, 'Flotilla'),
    h(
      'nav',
      { 'aria-label': 'Main' },
      h(
        'ul',
        { class: 'nav-list' },
        link(routes.runs(), 'Runs', 'runs'),
        link(routes.fleet(), 'Fleet', 'fleet'),
        link(routes.approvals(), 'Approvals', 'approvals'),
      ),
    ),
    h('button', { type: 'button', class: 'sign-out', onclick: signIn }, 'Sign out'),
  );
}

function renderView(context: ViewContext): { view: string; element: HTMLElement; title: string } {
  const route = parseRoute(location.hash);
  switch (route.view) {
    case 'runs':
      return { view: 'runs', element: runsView(context, route.query), title: 'Runs' };
    case 'run':
      return { view: 'runs', element: runView(context, route.runId), title: `Run ${route.runId}` };
    case 'conversation':
      return {
        view: 'runs',
        element: conversationView(context, route.conversationId),
        title: `Conversation ${route.conversationId}`,
      };
    case 'fleet':
      return { view: 'fleet', element: fleetView(context), title: 'Fleet' };
    case 'approvals':
      return { view: 'approvals', element: approvalsView(context), title: 'Approvals' };
    default:
      return {
        view: '',
        element: h(
          'div',
          { class: 'view' },
          h('h1', {}, 'Not found'),
          h('p', {}, `No view at ${route.path}.`),
        ),
        title: 'Not found',
      };
  }
}

function render(): void {
  if (!api) {
    signIn();
    return;
  }
  leave.abort();
  leave = new AbortController();
  const { view, element, title } = renderView({ api, signal: leave.signal });
  document.title = `${title} · Flotilla dashboard`;
  const main = h('main', { id: 'main', tabindex: -1 }, element);
  replaceChildren(root, navigation(view), main);
}

window.addEventListener('hashchange', render);
// The skip link must not change the hash (that is the route): it moves focus to the content.
document.querySelector('.skip-link')?.addEventListener('click', (event) => {
  event.preventDefault();
  document.getElementById('main')?.focus();
});
signIn();
