import { describe, expect, it } from 'vitest';
import type { RunEvent } from './run-event.js';
import { serializeRunEvent } from './serialize-run-event.js';

const limits = { maxDepth: 4, maxBytes: 100 };
const toolCall = (args: unknown): RunEvent => ({
  type: 'tool-call',
  runId: 'r1',
  at: 1,
  callPath: 'a',
  name: 'search',
  toolCallId: 'c1',
  args,
});
const nested = (levels: number): unknown => (levels === 0 ? 1 : { a: nested(levels - 1) });

describe('serializeRunEvent', () => {
  it('writes an event within bounds as JSON.stringify does', () => {
    const event = toolCall({ q: 'tides', when: new Date(0), skip: undefined, n: Number.NaN });
    expect(serializeRunEvent(event, limits)).toEqual({ text: JSON.stringify(event) });
  });

  it('keeps an event whose strings hold many brackets (they are no nesting)', () => {
    const event = toolCall({ q: '{[{[{[{[{[{[{[{[{[{[{[{[{[' });
    expect(serializeRunEvent(event, limits)).toEqual({ text: JSON.stringify(event) });
  });

  it('keeps an event with many shallow containers', () => {
    const event = toolCall([[], {}, [], {}, [], {}, [], {}, [], {}, [], {}, [], {}, []]);
    expect(serializeRunEvent(event, limits)).toEqual({ text: JSON.stringify(event) });
  });

  it('keeps an event nested exactly to the limit plus the envelope, with escapes in its strings', () => {
    const event = toolCall({ q: 'a "quoted" \\ [{', deep: nested(10) });
    expect(serializeRunEvent(event, limits)).toEqual({ text: JSON.stringify(event) });
    const { omitted } = serializeRunEvent(toolCall({ q: '"\\"', deep: nested(11) }), limits);
    expect(omitted).toMatch(/^nested deeper than 12 levels/);
  });

  it('omits a field nested deeper than the limit plus the envelope', () => {
    const { text, omitted } = serializeRunEvent(toolCall(nested(20)), limits);
    expect(omitted).toMatch(/^nested deeper than 12 levels/);
    expect(JSON.parse(text).args).toEqual({ $omitted: omitted });
    expect(JSON.parse(text).toolCallId).toBe('c1');
  });

  it('omits a field larger than the limit plus the envelope', () => {
    const { text, omitted } = serializeRunEvent(toolCall('é'.repeat(20_000)), limits);
    expect(omitted).toBe(`more than ${100 + 16 * 1024} bytes of JSON`);
    expect(JSON.parse(text).args).toEqual({ $omitted: omitted });
  });

  it('omits a field that is not JSON', () => {
    const args: Record<string, unknown> = { n: 1n };
    const { text, omitted } = serializeRunEvent(toolCall(args), limits);
    expect(omitted).toMatch(/^not JSON at "args.n"/);
    expect(JSON.parse(text).args).toEqual({ $omitted: omitted });
  });
});
