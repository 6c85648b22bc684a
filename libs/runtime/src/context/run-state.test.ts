import { describe, expect, it } from 'vitest';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { RunState } from './run-state.js';

describe('RunState.emit', () => {
  it('stamps runId and at after the fields the caller set, as a copy with them would', () => {
    const services = createEmbeddedServices({ runId: 'run-7' });
    const run = new RunState(services, new Map());
    const before = Date.now();
    run.emit({ type: 'generation-start', callPath: 'root', agentId: 'writer', generation: 0 });
    const [event] = services.events.events;
    expect(event).toEqual({
      type: 'generation-start',
      callPath: 'root',
      agentId: 'writer',
      generation: 0,
      runId: 'run-7',
      at: expect.any(Number),
    });
    expect(event?.at).toBeGreaterThanOrEqual(before);
    // The stream's text keeps the order of the copy it replaces: the caller's fields, then the stamps.
    expect(Object.keys(event ?? {})).toEqual(['type', 'callPath', 'agentId', 'generation', 'runId', 'at']);
  });

  it('emits nothing once suspended', () => {
    const services = createEmbeddedServices({ runId: 'run-8' });
    const run = new RunState(services, new Map());
    run.suspend();
    run.emit({ type: 'generation-start', callPath: 'root', agentId: 'writer', generation: 0 });
    expect(services.events.events).toEqual([]);
  });
});
