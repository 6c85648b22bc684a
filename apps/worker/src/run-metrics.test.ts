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

  it('escapes quotes, backslashes and newlines in agent ids', () => {
    const metrics = new RunMetrics();
    metrics.record('started', 'we"ird\\id\n');
    expect(metrics.render()).toContain('flotilla_runs_started_total{agent="we\\"ird\\\\id\\n"} 1\n');
  });

  it('renders gauges after the counters', () => {
    const text = new RunMetrics().render({ flotilla_worker_up: { help: 'up', value: 1 } });
    expect(
      text.endsWith('# HELP flotilla_worker_up up\n# TYPE flotilla_worker_up gauge\nflotilla_worker_up 1\n'),
    ).toBe(true);
  });
});
