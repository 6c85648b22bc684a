import { channel } from 'node:diagnostics_channel';
import { ObservationChannel } from '@flotilla/runtime/worker';
import { afterEach, describe, expect, it } from 'vitest';
import { RunMetrics } from './run-metrics.js';

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const end = { runId: 'r1', usage, modelCalls: 1, durationMs: 1500, attempts: 1 };
let metrics: RunMetrics | undefined;
afterEach(() => metrics?.close());

describe('RunMetrics', () => {
  it('renders every run counter of every served agent at 0 before any run, so dashboards see them', async () => {
    metrics = new RunMetrics({ servedAgents: ['research'] });
    const text = await metrics.render();
    for (const name of ['started', 'completed', 'failed', 'cancelled']) {
      expect(text).toContain(`# TYPE flotilla_runs_${name}_total counter\n`);
      expect(text).toContain(`flotilla_runs_${name}_total{agent="research"} 0\n`);
    }
  });

  it('counts run starts and ends from the worker hooks, with the run duration histogram', async () => {
    metrics = new RunMetrics();
    const hooks = metrics.hooks();
    hooks.onRunStart({ runId: 'r1', agentId: 'research', attempt: 1 });
    hooks.onRunEnd({ ...end, agentId: 'research', status: 'succeeded' });
    hooks.onRunEnd({ ...end, runId: 'r2', agentId: 'chat', status: 'failed' });
    const text = await metrics.render();
    expect(text).toContain('flotilla_runs_started_total{agent="research"} 1\n');
    expect(text).toContain('flotilla_runs_completed_total{agent="research"} 1\n');
    expect(text).toContain('flotilla_runs_failed_total{agent="chat"} 1\n');
    expect(text).toContain(
      'flotilla_run_duration_seconds_bucket{le="2.5",agent="research",status="succeeded"} 1\n',
    );
    expect(text).toContain(
      'flotilla_run_duration_seconds_bucket{le="1",agent="research",status="succeeded"} 0\n',
    );
  });

  it('labels only the agents the worker serves; runs of other ids count as unknown', async () => {
    metrics = new RunMetrics({ servedAgents: ['research'] });
    metrics.record('failed', 'research');
    for (let index = 0; index < 3; index += 1) metrics.record('failed', `made-up-${index}`);
    const text = await metrics.render();
    expect(text).toContain('flotilla_runs_failed_total{agent="research"} 1\n');
    expect(text).toContain('flotilla_runs_failed_total{agent="unknown"} 3\n');
    expect(text).not.toContain('made-up');
  });

  it('counts model calls, tokens, memo reads and gate parks the runtime publishes, until closed', async () => {
    metrics = new RunMetrics({ servedAgents: ['research'] }).subscribe();
    const call = {
      provider: 'mock',
      model: 'm1',
      durationMs: 300,
      ok: true,
      promptTokens: 7,
      completionTokens: 3,
    };
    channel(ObservationChannel.modelCall).publish({ ...call, agentId: 'research' });
    channel(ObservationChannel.modelCall).publish({ ...call, agentId: 'other', ok: false });
    channel(ObservationChannel.memo).publish({ outcome: 'hit' });
    channel(ObservationChannel.gatePark).publish({ agentId: 'research', kind: 'conversation' });
    metrics.close();
    channel(ObservationChannel.memo).publish({ outcome: 'hit' });
    const text = await metrics.render();
    expect(text).toContain(
      'flotilla_model_call_duration_seconds_count{agent="research",provider="mock",model="m1",outcome="ok"} 1\n',
    );
    expect(text).toContain(
      'flotilla_model_call_duration_seconds_count{agent="unknown",provider="mock",model="m1",outcome="error"} 1\n',
    );
    expect(text).toContain('flotilla_model_tokens_total{provider="mock",model="m1",kind="input"} 14\n');
    expect(text).toContain('flotilla_memo_reads_total{outcome="hit"} 1\n');
    expect(text).toContain('flotilla_gate_parks_total{agent="research",kind="conversation"} 1\n');
  });

  it('escapes quotes, backslashes and newlines in agent ids', async () => {
    metrics = new RunMetrics();
    metrics.record('started', 'we"ird\\id\n');
    expect(await metrics.render()).toContain('flotilla_runs_started_total{agent="we\\"ird\\\\id\\n"} 1\n');
  });
});
