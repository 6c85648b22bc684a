import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamedRunEvent } from './redis-run-event-stream.js';
import {
  decodeRunTimeline,
  encodeRunTimeline,
  encodeSplitRunTimeline,
  type RunEndOutcome,
} from './run-timeline.js';

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

describe('encodeRunTimeline, property', () => {
  const jsonValue = fc
    .jsonValue({ maxDepth: 3 })
    .map((value) => JSON.parse(JSON.stringify(value)) as unknown);
  const fieldNames = ['callPath', 'agentId', 'input', 'generation', 'position', 'turnIndex', 'usage', 'name'];
  const moreNames = ['args', 'toolCallId', 'ok', 'result', 'error', 'replayed', 'output', 'status', 'note'];
  const types = [
    'run-start',
    'generation-start',
    'model-turn-start',
    'model-turn-end',
    'tool-call',
    'tool-result',
  ];
  const event = fc.record({
    type: fc.constantFrom(...types, 'child-start', 'child-end', 'custom-note'),
    fields: fc.dictionary(fc.constantFrom(...fieldNames, ...moreNames, 'runId'), jsonValue, { maxKeys: 6 }),
    step: fc.nat({ max: 50 }),
    lag: fc.nat({ max: 20 }),
  });
  const outcomeOf = fc.record({
    status: fc.constantFrom('succeeded' as const, 'failed' as const),
    output: jsonValue,
    usage: fc.constant(usage),
    modelCalls: fc.nat({ max: 5 }),
  });

  it('decodes to exactly the events it was built from, for any events (so no decode check is needed when encoding)', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 12 }), outcomeOf, fc.boolean(), (drawn, recorded, sameEnd) => {
        let ms = 1_700_000_000_000;
        let seq = 0;
        const list = drawn.map(({ type, fields, step, lag }) => {
          if (step > 0) {
            ms += step;
            seq = 0;
          } else seq += 1;
          return { ...fields, type, at: ms - lag, eventId: `${ms}-${seq}` } as unknown as StreamedRunEvent;
        });
        const end: Record<string, unknown> = {
          type: 'run-end',
          runId,
          callPath: root,
          at: ms,
          eventId: `${ms + 1}-0`,
        };
        if (sameEnd)
          Object.assign(end, recorded.status === 'succeeded' ? recorded : { ...recorded, output: undefined });
        else end.status = 'cancelled';
        const original = [...list, JSON.parse(JSON.stringify(end)) as StreamedRunEvent];
        const text = encodeRunTimeline(runId, original, recorded);
        expect(decodeRunTimeline(runId, text, recorded)).toEqual(original);
      }),
      { numRuns: 500 },
    );
  });

  /** What finish-run-12 does with a split timeline and the ids of its own XADDs (the Lua, in JS). */
  function completeSplit(
    split: NonNullable<ReturnType<typeof encodeSplitRunTimeline>>,
    appended: readonly StreamedRunEvent[],
  ): string {
    let previous = split.previousMs;
    const entries = appended.map((event, index) => {
      const [ms, seq] = event.eventId.split('-').map(Number) as [number, number];
      const entry = `[${ms - previous},${seq},${ms - event.at},${split.tails[index]}`;
      previous = ms;
      return entry;
    });
    return `${split.head}${entries.join(',')}]}`;
  }

  it("split: an event's `at` read in place is the one JSON says (negative, long); not an integer: compacted from the stream", () => {
    const end = {
      type: 'run-end',
      runId,
      callPath: root,
      at: 1_700_000_000_100,
      eventId: '1700000000101-0',
      ...outcome,
    };
    const text = ({ eventId: _id, ...rest }: StreamedRunEvent) => JSON.stringify(rest);
    for (const at of [-3, 0, 1_234_567_890_123_456]) {
      const start = {
        type: 'run-start',
        runId,
        callPath: root,
        agentId: 'a',
        input: 1,
        at,
        eventId: '1700000000000-0',
      };
      const all = [start, end] as unknown as StreamedRunEvent[];
      const split = encodeSplitRunTimeline(
        runId,
        { texts: [text(all[0] as StreamedRunEvent)], ids: ['1700000000000-0'] },
        [text(all[1] as StreamedRunEvent)],
        outcome,
      );
      expect(split && completeSplit(split, all.slice(1))).toBe(
        encodeRunTimeline(runId, structuredClone(all), outcome),
      );
    }
    const fractional = text({ ...end, at: 1.5 } as unknown as StreamedRunEvent);
    expect(encodeSplitRunTimeline(runId, { texts: [], ids: [] }, [fractional], outcome)).toBeUndefined();
  });

  it('split: a value written again with its members in another order is inherited, as the object encoder does', () => {
    const permuted = { totalTokens: 15, completionTokens: 3, promptTokens: 12 };
    const list = [
      { type: 'model-turn-end', callPath: root, position: 'p', turnIndex: 0, usage, replayed: false },
      {
        type: 'model-turn-end',
        callPath: root,
        position: 'p',
        turnIndex: 0,
        usage: permuted,
        replayed: false,
      },
      { type: 'tool-call', callPath: root, name: 's', args: { a: 1, b: [{ x: 1, y: 2 }] }, toolCallId: 'c' },
      { type: 'tool-call', callPath: root, name: 's', args: { b: [{ y: 2, x: 1 }], a: 1 }, toolCallId: 'c' },
      {
        type: 'run-end',
        callPath: root,
        status: 'succeeded',
        output: { text: 'done' },
        usage: permuted,
        modelCalls: 2,
      },
    ].map((event, index) => ({ ...event, runId, at: 1_000 + index, eventId: `${1_001 + index}-0` }));
    const all = list as unknown as StreamedRunEvent[];
    const text = ({ eventId: _id, ...rest }: StreamedRunEvent) => JSON.stringify(rest);
    const whole = encodeRunTimeline(runId, all, outcome);
    for (const at of [0, 2, 4]) {
      const written = all.slice(0, at);
      const split = encodeSplitRunTimeline(
        runId,
        { texts: written.map(text), ids: written.map((event) => event.eventId) },
        all.slice(at).map(text),
        outcome,
      );
      expect(split && completeSplit(split, all.slice(at))).toBe(whole);
    }
    // Inherited: the second usage and args, and the run-end's outcome, are not stored again.
    expect(whole.match(/promptTokens/g)).toHaveLength(1);
    expect(whole.match(/"args"/g)).toHaveLength(1);
  });

  it('split where the stream ids are not known yet, completes to the same text, for any events and any split', () => {
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 12 }),
        outcomeOf,
        fc.nat({ max: 12 }),
        (drawn, recorded, cut) => {
          let ms = 1_700_000_000_000;
          let seq = 0;
          const list = drawn.map(({ type, fields, step, lag }) => {
            if (step > 0) {
              ms += step;
              seq = 0;
            } else seq += 1;
            return { ...fields, type, at: ms - lag, eventId: `${ms}-${seq}` } as unknown as StreamedRunEvent;
          });
          const end = { type: 'run-end', runId, callPath: root, at: ms, eventId: `${ms + 1}-0`, ...recorded };
          const all = [...list, JSON.parse(JSON.stringify(end)) as StreamedRunEvent];
          const at = Math.min(cut, list.length);
          const copy = (items: StreamedRunEvent[]) => items.map((item) => structuredClone(item));
          // What the stream got: each event's text, without its id.
          const text = ({ eventId: _id, ...rest }: StreamedRunEvent) => JSON.stringify(rest);
          const appended = copy(all.slice(at));
          const written = all.slice(0, at);
          const split = encodeSplitRunTimeline(
            runId,
            { texts: written.map(text), ids: written.map((event) => event.eventId) },
            appended.map(text),
            recorded,
          );
          expect(split).toBeDefined();
          if (split)
            expect(completeSplit(split, appended)).toBe(encodeRunTimeline(runId, copy(all), recorded));
        },
      ),
      { numRuns: 500 },
    );
  });
});
