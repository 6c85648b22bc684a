import { describe, expect, it } from 'vitest';
import { createWorkerLogger } from './create-worker-logger.js';
import { RunMetrics } from './run-metrics.js';

describe('createWorkerLogger', () => {
  it.each(['info', 'error', 'silent'] as const)(
    'counts run lines from child loggers at LOG_LEVEL=%s',
    (level) => {
      const metrics = new RunMetrics();
      const logger = createWorkerLogger(level, metrics);
      const run = logger.child({ runId: 'r1', agentId: 'research' });
      run.info({ attempt: 1 }, 'run started');
      run.info({ status: 'succeeded' }, 'run succeeded');
      // A run failed outside the processor names its agent in the line itself.
      logger.error({ runId: 'r2', agentId: 'chat' }, 'run failed');
      run.info('something else');
      expect(metrics.count('started', 'research')).toBe(1);
      expect(metrics.count('succeeded', 'research')).toBe(1);
      expect(metrics.count('failed', 'chat')).toBe(1);
      expect(metrics.count('cancelled')).toBe(0);
    },
  );
});
