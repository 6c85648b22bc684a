import { describe, expect, it } from 'vitest';
import { parseRoute, routes } from './router.ts';

describe('parseRoute', () => {
  it('reads every view back from the link it makes, ids with any allowed character included', () => {
    expect(parseRoute(routes.run('tree-1.0a1b2c3d4e5f6a7b'))).toEqual({
      view: 'run',
      runId: 'tree-1.0a1b2c3d4e5f6a7b',
    });
    expect(parseRoute(routes.conversation('chat_7'))).toEqual({
      view: 'conversation',
      conversationId: 'chat_7',
    });
    expect(parseRoute(routes.fleet())).toEqual({ view: 'fleet' });
    expect(parseRoute(routes.approvals())).toEqual({ view: 'approvals' });
    const runs = parseRoute(routes.runs(new URLSearchParams({ status: 'failed', agentId: 'research' })));
    expect(runs.view).toBe('runs');
    expect(runs.view === 'runs' && Object.fromEntries(runs.query)).toEqual({
      status: 'failed',
      agentId: 'research',
    });
  });

  it('opens the runs for an empty hash and names an unknown path', () => {
    expect(parseRoute('').view).toBe('runs');
    expect(parseRoute('#/nowhere/at/all')).toEqual({ view: 'not-found', path: '/nowhere/at/all' });
  });
});
