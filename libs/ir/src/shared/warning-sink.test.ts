import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CompileWarning } from '../types/target-adapter.js';
import { WarningSink } from './warning-sink.js';

describe('WarningSink', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('forwards each warning to onWarning and keeps it, naming the target', () => {
    const received: CompileWarning[] = [];
    const sink = new WarningSink('gemini', { onWarning: (warning) => received.push(warning) });
    sink.warn('attachment-unsupported', 'x dropped', 2);
    expect(received).toEqual([
      { code: 'attachment-unsupported', message: 'gemini target: x dropped', messageIndex: 2 },
    ]);
    expect(sink.warnings).toEqual(received);
  });

  it('reports a once-code only the first time', () => {
    const sink = new WarningSink('openai', { onWarning: () => {} });
    sink.warnOnce('redacted-thinking-dropped', 'dropped', 1);
    sink.warnOnce('redacted-thinking-dropped', 'dropped', 3);
    expect(sink.warnings.map((warning) => warning.messageIndex)).toEqual([1]);
  });

  it('logs with console.warn when the caller gave no onWarning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    new WarningSink('anthropic').warn('cache-breakpoints-limited', 'too many');
    expect(warn).toHaveBeenCalledWith(
      '[@flotilla/ir] anthropic target: too many (cache-breakpoints-limited)',
    );
  });
});
