/**
 * Hash routes (`#/runs`, `#/runs/<id>`, `#/conversations/<id>`, `#/fleet`, `#/approvals`): the
 * scheduler serves one page at `/ui`, and the hash never reaches it. A new view is one entry in
 * {@link parseRoute} and one in `main.ts`.
 */
export type Route =
  | { view: 'runs'; query: URLSearchParams }
  | { view: 'run'; runId: string }
  | { view: 'conversation'; conversationId: string }
  | { view: 'fleet' }
  | { view: 'approvals' }
  | { view: 'not-found'; path: string };

/** The route of a location hash. */
export function parseRoute(hash: string): Route {
  const [path = '', search = ''] = hash.replace(/^#/, '').split('?');
  const parts = path
    .split('/')
    .filter((part) => part !== '')
    .map(decodeURIComponent);
  if (parts.length === 0 || (parts[0] === 'runs' && parts.length === 1))
    return { view: 'runs', query: new URLSearchParams(search) };
  if (parts[0] === 'runs' && parts.length === 2 && parts[1]) return { view: 'run', runId: parts[1] };
  if (parts[0] === 'conversations' && parts.length === 2 && parts[1])
    return { view: 'conversation', conversationId: parts[1] };
  if (parts[0] === 'fleet' && parts.length === 1) return { view: 'fleet' };
  if (parts[0] === 'approvals' && parts.length === 1) return { view: 'approvals' };
  return { view: 'not-found', path };
}

/** The hash of a route to link to. */
export const routes = {
  runs: (query?: URLSearchParams) => `#/runs${query && query.size > 0 ? `?${query}` : ''}`,
  run: (runId: string) => `#/runs/${encodeURIComponent(runId)}`,
  conversation: (conversationId: string) => `#/conversations/${encodeURIComponent(conversationId)}`,
  fleet: () => '#/fleet',
  approvals: () => '#/approvals',
};
