import type { RedisRunRecords } from './redis-run-records.js';
import { isTerminalStatus } from './run-status.js';

/** `runId` → whether its run ended or its record is gone (expired): the waiting gate's test of a stale holder. */
export function runHasEnded(records: RedisRunRecords): (runId: string) => Promise<boolean> {
  return async (runId) => {
    const record = await records.get(runId);
    return !record || isTerminalStatus(record.status);
  };
}
