import { describe, expect, it } from 'vitest';
import { RunMetrics } from './run-metrics.js';

describe('RunMetrics', () => {
  it('renders every counter at 0 before any run, so dashboards see them', () => {
    const text = new RunMetrics().render();
    for (const name of ['started', 'completed', 'failed', 'cancelled']) {
      expect(text).toContain(`# TYPE flotilla_runs_${name}_total counter\nflotilla_runs_${name}_total 0\n`);
    }
  });

  it('counts by agent and sums over agents', () => {
    const metrics = new RunMetrics();
    metrics.record('succeeded', 'research');
    metrics.record('succeeded', 'research');
    metrics.record('succeeded', 'chat');
    metrics.record('failed', 'chat');
    expect(metrics.count('succeeded')).toBe(3);
    expect(metrics.render()).toContain('flotilla_runs_completed_total{agent="research"} 2\n');
    expect(metrics.render()).toContain('flotilla_runs_failed_total{agent="chat"} 1\n');
  });

  it('counts run starts and ends reported through the worker hooks', () => {
    const metrics = new RunMetrics();
    const hooks = metrics.hooks();
    hooks.onRunStart({ runId: 'r1', agentId: 'research', attempt: 1 });
    const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
    const end = { runId: 'r1', usage, modelCalls: 1, durationMs: 5, attempts: 1 };
    hooks.onRunEnd({ ...end, agentId: 'research', status: 'succeeded' });
    hooks.onRunEnd({ ...end, runId: 'r2', agentId: 'chat', status: 'failed' });
    expect(metrics.count('started', 'research')).toBe(1);
    expect(metrics.count('succeeded', 'research')).toBe(1);
    expect(metrics.count('failed', 'chat')).toBe(1);
    expect(metrics.count('cancelled')).toBe(0);
  });

  it('escapes quotes, backslashes and newlines in agent ids', () => {
    const metrics = new RunMetrics();
    metrics.record('started', 'we"ird\\id\n');
    expect(metrics.render()).toContain('flotilla_runs_started_total{agent="we\\"ird\\\\id\\n"} 1\n');
  });

  it('labels only the agents the worker serves; runs of other ids count as unknown', () => {
    const metrics = new RunMetrics(['research']);
    metrics.record('failed', 'research');
    for (let index = 0; index < 3; index += 1) metrics.record('failed', `made-up-${index}`);
    const text = metrics.render();
    expect(text).toContain('flotilla_runs_failed_total{agent="research"} 1\n');
    expect(text).toContain('flotilla_runs_failed_total{agent="unknown"} 3\n');
    expect(text).not.toContain('made-up');
  });

  it('renders gauges after the counters', () => {
    const text = new RunMetrics().render({ flotilla_worker_up: { help: 'up', value: 1 } });
    expect(
      text.endsWith('# HELP flotilla_worker_up up\n# TYPE flotilla_worker_up gauge\nflotilla_worker_up 1\n'),
    ).toBe(true);
  });
});
