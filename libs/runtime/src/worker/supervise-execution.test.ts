import { describe, expect, it } from 'vitest';
import { AbortError, RunTimeoutError } from '../errors/run-errors.js';
import { RunCancel } from './cancel-listener.js';
import { ExecutionFence } from './execution-fence.js';
import {
  HandBack,
  RunHandedBackError,
  type StartExecution,
  type SupervisedCancel,
  type Supervision,
  superviseExecution,
} from './supervise-execution.js';

const never = new Promise<never>(() => {});

/** An execution that reports the settling of `execution`. */
function started<T>(execution: Promise<T>): StartExecution<T> {
  return (settle) => {
    execution.then(settle.resolve, settle.reject);
  };
}

function supervision<T = unknown>(overrides: Partial<Supervision<T>> = {}): Supervision<T> {
  return {
    cancel: new RunCancel(),
    onDeadline: () => new RunTimeoutError('r-1', 0, 0),
    graceMs: 20,
    fence: new ExecutionFence('r-1'),
    ...overrides,
  };
}

describe('superviseExecution', () => {
  it('settles with the execution while nothing aborts it', async () => {
    const watched = supervision({ deadline: Date.now() + 60_000 });
    await expect(superviseExecution(started(Promise.resolve('done')), watched)).resolves.toBe('done');
    expect(watched.fence.abandoned).toBe(false);
  });

  it('rejects with the error an execution throws as it starts, and watches nothing after', async () => {
    const handBack = new HandBack();
    const watched = supervision({ handBack });
    const throwing: StartExecution<string> = () => {
      throw new Error('no agent');
    };
    await expect(superviseExecution(throwing, watched)).rejects.toThrow('no agent');
    // A hand-back after the end abandons nothing (no listener was left behind).
    handBack.fire(new RunHandedBackError('r-1'));
    expect(watched.fence.abandoned).toBe(false);
    expect(watched.cancel.aborted).toBe(false);
  });

  it('abandons an execution that ignores a cancel, rejecting with the abort reason', async () => {
    const watched = supervision();
    const settled = superviseExecution(started(never), watched);
    watched.cancel.abort(new AbortError('run r-1 was cancelled'));
    await expect(settled).rejects.toMatchObject({ name: 'AbortError' });
    expect(watched.fence.abandoned).toBe(true);
  });

  it('lets an aborted execution that stops by itself end its own way', async () => {
    const watched = supervision({ graceMs: 60_000 });
    let stop: (error: Error) => void = () => {};
    const execution = new Promise<never>((_, reject) => {
      stop = reject;
    });
    const settled = superviseExecution(started(execution), watched);
    watched.cancel.abort(new AbortError('cancelled'));
    stop(new Error('stopped at the next step'));
    await expect(settled).rejects.toThrow('stopped at the next step');
    expect(watched.fence.abandoned).toBe(false);
  });

  it('aborts the signal with the deadline error at the deadline, then abandons', async () => {
    const watched = supervision({ deadline: Date.now() + 10 });
    await expect(superviseExecution(started(never), watched)).rejects.toMatchObject({
      name: 'RunTimeoutError',
    });
    expect(RunTimeoutError.is(watched.cancel.reason)).toBe(true);
    expect(watched.fence.abandoned).toBe(true);
  });

  it('hears a cancel through the RunCancel (no abort listener on a signal) and stops listening once settled', async () => {
    const cancel = new RunCancel();
    const listens: string[] = [];
    const listened: SupervisedCancel = {
      get aborted() {
        return cancel.aborted;
      },
      get reason() {
        return cancel.reason;
      },
      abort: (reason) => cancel.abort(reason),
      listen: (listener) => {
        listens.push('listen');
        const stop = cancel.listen(listener);
        return () => {
          listens.push('stop');
          stop();
        };
      },
    };
    const watched = supervision({ cancel: listened });
    const settled = superviseExecution(started(never), watched);
    cancel.abort(new AbortError('run r-1 was cancelled'));
    await expect(settled).rejects.toMatchObject({ name: 'AbortError' });
    expect(watched.fence.abandoned).toBe(true);
    expect(listens).toEqual(['listen', 'stop']);

    // Settled first: a later cancel finds no listener and changes nothing.
    const done = new RunCancel();
    await expect(
      superviseExecution(started(Promise.resolve('done')), supervision({ cancel: done })),
    ).resolves.toBe('done');
    done.abort(new AbortError('late'));
    expect(done.aborted).toBe(true);
  });

  it('abandons at the deadline it aborts the RunCancel with, its signal included', async () => {
    const cancel = new RunCancel();
    const signal = cancel.signal;
    const watched = supervision({ cancel, deadline: Date.now() + 10 });
    await expect(superviseExecution(started(never), watched)).rejects.toMatchObject({
      name: 'RunTimeoutError',
    });
    expect(RunTimeoutError.is(cancel.reason)).toBe(true);
    expect(RunTimeoutError.is(signal.reason)).toBe(true);
    expect(watched.fence.abandoned).toBe(true);
  });

  it('abandons at once when the execution is handed back', async () => {
    const handBack = new HandBack();
    const watched = supervision({ graceMs: 60_000, handBack });
    const settled = superviseExecution(started(never), watched);
    handBack.fire(new RunHandedBackError('r-1'));
    await expect(settled).rejects.toMatchObject({ name: 'RunHandedBackError' });
    expect(watched.fence.abandoned).toBe(true);
    expect(watched.cancel.aborted).toBe(true);
  });

  describe('with settle callbacks (the clean-up done in the supervision, not around it)', () => {
    it('settles with what the value callback gives, waiting for its promise', async () => {
      const log: string[] = [];
      const watched = supervision<string>({
        settle: {
          value: (value) => {
            log.push(`value ${value}`);
            return Promise.resolve(`${value} (cleaned up)`);
          },
          error: () => undefined,
        },
      });
      await expect(superviseExecution(started(Promise.resolve('done')), watched)).resolves.toBe(
        'done (cleaned up)',
      );
      expect(log).toEqual(['value done']);
    });

    it('rejects with the execution error once the error callback has nothing to wait for, or with what it settles', async () => {
      const seen: unknown[] = [];
      const failing = supervision({
        settle: {
          value: (value) => value,
          error: (error) => {
            seen.push(error);
            return undefined;
          },
        },
      });
      await expect(superviseExecution(started(Promise.reject(new Error('boom'))), failing)).rejects.toThrow(
        'boom',
      );
      expect(seen).toEqual([new Error('boom')]);
      const cleanupFailed = supervision({
        settle: { value: (value) => value, error: () => Promise.reject(new Error('clean-up failed')) },
      });
      await expect(
        superviseExecution(started(Promise.reject(new Error('boom'))), cleanupFailed),
      ).rejects.toThrow('clean-up failed');
    });

    it('calls the error callback with the abort reason when it abandons the execution, the fence abandoned first', async () => {
      const handBack = new HandBack();
      const abandonedFirst: boolean[] = [];
      const watched = supervision({
        graceMs: 60_000,
        handBack,
        settle: {
          value: (value) => value,
          error: () => {
            abandonedFirst.push(watched.fence.abandoned);
            return undefined;
          },
        },
      });
      const settled = superviseExecution(started(never), watched);
      handBack.fire(new RunHandedBackError('r-1'));
      await expect(settled).rejects.toMatchObject({ name: 'RunHandedBackError' });
      expect(abandonedFirst).toEqual([true]);
    });

    it('rejects with what a callback throws', async () => {
      const watched = supervision<string>({
        settle: {
          value: () => {
            throw new Error('value callback threw');
          },
          error: () => undefined,
        },
      });
      await expect(superviseExecution(started(Promise.resolve('done')), watched)).rejects.toThrow(
        'value callback threw',
      );
    });
  });
});
