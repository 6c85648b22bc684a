import { describe, expect, it } from 'vitest';
import type { StreamedRunEvent } from './redis-run-event-stream.js';
import { decodeRunTimeline, encodeRunTimeline, type RunEndOutcome } from './run-timeline.js';

const runId = 'run-1';
const root = 'root/agent:writer:0';
const usage = { promptTokens: 12, completionTokens: 3, totalTokens: 15 };
const outcome: RunEndOutcome = { status: 'succeeded', output: { text: 'done' }, usage, modelCalls: 2 };

/** A run with two model turns, a failed then a passed tool call, a child and a replayed turn. */
function events(): StreamedRunEvent[] {
  let ms = 1_700_000_000_000;
  let seq = 0;
  const id = (step: number) => {
    if (step > 0) {
      ms += step;
      seq = 0;
    } else seq += 1;
    return `${ms}-${seq}`;
  };
  const at = () => ms - 3;
  const list: Omit<StreamedRunEvent, 'at' | 'runId'>[] = [
    { type: 'run-start', callPath: root, agentId: 'writer', input: { topic: 'tides' }, eventId: id(1) },
    { type: 'generation-start', callPath: root, agentId: 'writer', generation: 0, eventId: id(0) },
    {
      type: 'model-turn-start',
      callPath: root,
      position: `${root}/g0/model:0`,
      turnIndex: 0,
      modelId: 'gpt',
      provider: 'openai',
      eventId: id(0),
    },
    {
      type: 'model-turn-end',
      callPath: root,
      position: `${root}/g0/model:0`,
      turnIndex: 0,
      usage,
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      replayed: true,
      eventId: id(40),
    },
    {
      type: 'tool-call',
      callPath: root,
      name: 'search',
      args: { q: 'tides' },
      toolCallId: 'c1',
      eventId: id(0),
    },
    {
      type: 'tool-result',
      callPath: root,
      name: 'search',
      toolCallId: 'c1',
      ok: false,
      error: { name: 'Error', message: 'offline' },
      replayed: false,
      eventId: id(5),
    },
    {
      type: 'tool-call',
      callPath: root,
      name: 'search',
      args: { q: 'tides' },
      toolCallId: 'c2',
      eventId: id(1),
    },
    {
      type: 'tool-result',
      callPath: root,
      name: 'search',
      toolCallId: 'c2',
      ok: true,
      result: null,
      replayed: false,
      eventId: id(0),
    },
    {
      type: 'child-start',
      callPath: root,
      agentId: 'critic',
      childCallPath: `${root}/g0/agent:critic:0`,
      childRunId: 'child-1',
      eventId: id(2),
    },
    {
      type: 'child-end',
      callPath: root,
      agentId: 'critic',
      childCallPath: `${root}/g0/agent:critic:0`,
      ok: true,
      replayed: false,
      childRunId: 'child-1',
      eventId: id(9),
    },
    {
      type: 'model-turn-end',
      callPath: root,
      position: `${root}/g0/model:1`,
      turnIndex: 1,
      usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
      finishReason: { unified: 'stop', raw: 'stop' },
      replayed: false,
      eventId: id(30),
    },
    {
      type: 'generation-end',
      callPath: root,
      agentId: 'writer',
      generation: 0,
      endReason: 'return',
      eventId: id(0),
    },
    { type: 'run-end', callPath: root, ...outcome, eventId: id(1) },
  ] as Omit<StreamedRunEvent, 'at' | 'runId'>[];
  return list.map((event) => ({ ...event, runId, at: at() }) as StreamedRunEvent);
}

describe('run timeline', () => {
  it('decodes to exactly the events it was built from, ids included', () => {
    const original = events();
    const text = encodeRunTimeline(runId, original, outcome);
    expect(decodeRunTimeline(runId, text, outcome)).toEqual(original);
    expect(JSON.parse(text).full).toBeUndefined();
  });

  it('is much smaller than the events it holds', () => {
    const original = events();
    const raw = original.map((event) => JSON.stringify(event)).join('').length;
    const compact = encodeRunTimeline(runId, original, outcome).length;
    expect(compact).toBeLessThan(raw / 2);
  });

  it('keeps a run-end whose outcome the record does not say (here: no output) as it was', () => {
    const original = events();
    const last = original.at(-1) as StreamedRunEvent & { output?: unknown };
    delete last.output;
    const recorded: RunEndOutcome = { ...outcome, output: null };
    expect(decodeRunTimeline(runId, encodeRunTimeline(runId, original, recorded), recorded)).toEqual(
      original,
    );
  });

  it('keeps events of a type it does not know, field for field', () => {
    const original = events();
    original.splice(2, 0, {
      type: 'custom-note',
      runId,
      callPath: root,
      at: 5,
      note: 'x',
      eventId: original[1]?.eventId.replace(/-\d+$/, '-9') ?? '',
    } as unknown as StreamedRunEvent);
    original.sort((a, b) => (a.eventId < b.eventId ? -1 : 1));
    expect(decodeRunTimeline(runId, encodeRunTimeline(runId, original, outcome), outcome)).toEqual(original);
  });
});
