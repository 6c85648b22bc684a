import { describe, expect, it } from 'vitest';
import { MAX_PENDING_STEPS, TooManyPendingStepsError } from '../errors/patch-errors.js';
import type { RunEndEvent } from '../events/run-event.js';
import { runKeys } from '../keys.js';
import { createRunArgs, finishRunArgs, suspendRunArgs } from './run-script-args.js';

const keys = runKeys('p', 'r1');
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const event: RunEndEvent = {
  type: 'run-end',
  runId: 'r1',
  at: 5,
  callPath: 'root/agent:a:0',
  status: 'failed',
  usage,
  modelCalls: 1,
};

describe('run script argument builders', () => {
  it('sends an empty conversation id, tenant and submission hash when there are none', () => {
    expect(createRunArgs(keys, { runId: 'r1', agentId: 'a' }, 7)).toEqual({
      keys: ['p:run:{r:r1}:record'],
      args: ['r1', 'a', '', '7', '', '', ''],
    });
  });

  it("sends a schedule's firing its schedule id", () => {
    const run = { runId: 's1-1700000000000', agentId: 'a', scheduleId: 's1' };
    expect(createRunArgs(keys, run, 7).args).toEqual(['s1-1700000000000', 'a', '', '7', '', '', 's1']);
  });

  it("sends a submitted run's tenant and submission hash", () => {
    const run = { runId: 'acme~r1', agentId: 'a', tenant: 'acme', submissionHash: 'h' };
    expect(createRunArgs(keys, run, 7).args).toEqual(['acme~r1', 'a', '', '7', 'acme', 'h', '']);
  });

  it("appends a child run's parent, root, callPath and fingerprint", () => {
    const child = {
      runId: 'r2',
      agentId: 'c',
      parentRunId: 'r1',
      rootRunId: 'r1',
      callPath: 'p',
      fingerprint: 'f',
    };
    expect(createRunArgs(keys, child, 7).args).toEqual([
      'r2',
      'c',
      '',
      '7',
      '',
      '',
      '',
      'r1',
      'r1',
      'p',
      'f',
      '',
    ]);
  });

  it("appends the build a pinned parent's child run is pinned to", () => {
    const child = { runId: 'r2', agentId: 'c', parentRunId: 'r1', rootRunId: 'r1', pinnedBuild: 'v2' };
    expect(createRunArgs(keys, child, 7).args.slice(7)).toEqual(['r1', 'r1', '', '', 'v2']);
  });

  it('lays out suspend-run-3: the usage totals a suspended run carries (no waits, no pending steps, no writes)', () => {
    expect(suspendRunArgs(keys, { usage, modelCalls: 3 }, 9)).toEqual({
      keys: ['p:run:{r:r1}:record', 'p:run:{r:r1}:journal', 'p:run:{r:r1}:events'],
      args: [JSON.stringify(usage), '3', '9', '', '', '', '', '0', '0'],
    });
  });

  it("sends the execution's unsent journal entries, then its events, after the suspension's own arguments", () => {
    const writes = {
      records: ['root/p1', '{"e":1}'],
      events: ['{"type":"run-suspended"}'],
      eventStreamMaxLength: 50,
    };
    expect(suspendRunArgs(keys, { usage, modelCalls: 3 }, 9, 't', { writes }).args.slice(7)).toEqual([
      '50',
      '1',
      'root/p1',
      '{"e":1}',
      '{"type":"run-suspended"}',
    ]);
  });

  it('sends the waits of a durable suspension, the one waitingFor that sums them up, and the steps it waits at', () => {
    const waits = [{ waitingFor: { kind: 'sleep' as const, detail: 'until 5' }, wakeAt: 5 }];
    const pendingSteps = ['root/agent:a:0/g0/sleep:0/end'];
    expect(suspendRunArgs(keys, { usage, modelCalls: 3 }, 9, 't', { waits, pendingSteps }).args).toEqual([
      JSON.stringify(usage),
      '3',
      '9',
      't',
      JSON.stringify(waits[0]?.waitingFor),
      JSON.stringify(waits),
      JSON.stringify(pendingSteps),
      '0',
      '0',
    ]);
  });

  it('refuses more pending steps than a suspension stores, naming the run', () => {
    const pendingSteps = Array.from(
      { length: MAX_PENDING_STEPS + 1 },
      (_, n) => `root/agent:a:0/g0/agent:c:${n}`,
    );
    const error = (() => {
      try {
        return suspendRunArgs(keys, { usage, modelCalls: 0 }, 9, '', { runId: 'r1', pendingSteps });
      } catch (caught) {
        return caught;
      }
    })();
    expect(TooManyPendingStepsError.is(error)).toBe(true);
    expect(error).toMatchObject({
      runId: 'r1',
      pendingSteps: MAX_PENDING_STEPS + 1,
      limit: MAX_PENDING_STEPS,
    });
  });

  it('lays out finish-run-12: seven keys of one hash tag, output only for a success', () => {
    const call = finishRunArgs(
      keys,
      { status: 'failed', output: 'ignored', error: { name: 'E', message: 'm' }, usage, modelCalls: 1 },
      event,
      { eventStreamMaxLength: 100, retention: { recordSeconds: 60, journalSeconds: 30 } },
    );
    expect(call.keys).toEqual([
      'p:run:{r:r1}:record',
      'p:run:{r:r1}:events',
      'p:run:{r:r1}:journal',
      'p:run:{r:r1}:cancel',
      'p:run:{r:r1}:timeline',
      'p:run:{r:r1}:children',
      'p:run:{r:r1}:memory-index',
    ]);
    expect(call.args).toEqual([
      'failed',
      '5',
      '',
      '{"name":"E","message":"m"}',
      JSON.stringify(usage),
      '1',
      JSON.stringify(event),
      '100',
      '60',
      '30',
      '',
      'p:run:{r:r1}:memory:',
      '0',
      '',
      '0',
      '0',
      '',
    ]);
  });

  it('lays out the journal entries finish-run-12 records ahead of the events it appends', () => {
    const call = finishRunArgs(keys, { status: 'succeeded', usage, modelCalls: 0 }, event, {
      eventStreamMaxLength: 1,
      retention: { recordSeconds: 1, journalSeconds: 1 },
      records: ['g0/model:0', '{"a":1}'],
      events: ['{"e":1}'],
    });
    expect(call.args.slice(14)).toEqual(['1', 'g0/model:0', '{"a":1}', '1', '{"e":1}', '']);
  });

  it('lays out the timeline block: head, what it covers, the grace, whether the stream is whole, then each tail', () => {
    const timeline = {
      head: '{"v":1,"e":[',
      streamLength: 2,
      lastId: '9-1',
      previousMs: 9,
      graceMs: 10,
      tails: ['"run-end",{}]'],
      ats: [12],
    };
    const ending = { status: 'succeeded' as const, usage, modelCalls: 0 };
    const options = { eventStreamMaxLength: 1, retention: { recordSeconds: 1, journalSeconds: 1 } };
    const checked = finishRunArgs(keys, ending, event, { ...options, timeline });
    expect(checked.args.slice(16)).toEqual([
      '{"v":1,"e":[',
      '2',
      '9-1',
      '9',
      '10',
      '0',
      '12',
      '"run-end",{}]',
    ]);
    const whole = finishRunArgs(keys, ending, event, { ...options, timeline: { ...timeline, whole: true } });
    expect(whole.args.slice(16, 22)).toEqual(['{"v":1,"e":[', '2', '9-1', '9', '10', '1']);
  });

  it('passes the memory key prefix to finish-run-12 always, and whether to clean up an ended run', () => {
    const ending = { status: 'succeeded' as const, usage, modelCalls: 0 };
    const retention = { recordSeconds: 1, journalSeconds: 1 };
    const plain = finishRunArgs(keys, ending, event, { eventStreamMaxLength: 1, retention });
    const cleaning = finishRunArgs(keys, ending, event, {
      eventStreamMaxLength: 1,
      retention,
      cleanUp: true,
    });
    expect(plain.args.slice(11, 13)).toEqual(['p:run:{r:r1}:memory:', '0']);
    expect(cleaning.args.slice(11, 13)).toEqual(['p:run:{r:r1}:memory:', '1']);
    expect(keys.memoryOf('root')).toBe(`${cleaning.args[11]}root`);
  });

  it('passes the channel to publish the end on, or none', () => {
    const ending = { status: 'succeeded' as const, usage, modelCalls: 0 };
    const options = { eventStreamMaxLength: 1, retention: { recordSeconds: 1, journalSeconds: 1 } };
    expect(finishRunArgs(keys, ending, event, options).args[13]).toBe('');
    const noticed = finishRunArgs(keys, ending, event, { ...options, endChannel: 'p:run:{r:r1}:events:end' });
    expect(noticed.args[13]).toBe('p:run:{r:r1}:events:end');
  });

  it('stores null for a successful run without output, so the output field exists', () => {
    const call = finishRunArgs(keys, { status: 'succeeded', usage, modelCalls: 0 }, event, {
      eventStreamMaxLength: 1,
      retention: { recordSeconds: 1, journalSeconds: 1 },
    });
    expect(call.args[2]).toBe('null');
  });
});
