import { describe, expect, it } from 'vitest';
import { AbortError } from '../errors/run-errors.js';
import { RunCancel } from './cancel-listener.js';

describe('RunCancel', () => {
  it('aborts its signal with the reason, whether the signal was asked for before or after', () => {
    const early = new RunCancel();
    const signal = early.signal;
    const reason = new AbortError('run r-1 was cancelled');
    early.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);

    const late = new RunCancel();
    late.abort(reason);
    expect(late.aborted).toBe(true);
    expect(late.signal.aborted).toBe(true);
    expect(late.signal.reason).toBe(reason);
  });

  it('aborts the controllers linked to it (the first reason counts); an unlinked one stays', () => {
    const cancel = new RunCancel();
    const linked = new AbortController();
    const unlinked = new AbortController();
    cancel.link(linked);
    cancel.link(unlinked)();
    const reason = new AbortError('cancelled');
    cancel.abort(reason);
    cancel.abort(new AbortError('again'));
    expect(linked.signal.reason).toBe(reason);
    expect(cancel.reason).toBe(reason);
    expect(unlinked.signal.aborted).toBe(false);

    const after = new AbortController();
    cancel.link(after);
    expect(after.signal.reason).toBe(reason);
  });
});
