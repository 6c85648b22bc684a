/** `flotilla schedules list | set | remove`. */
import type { ScheduleInfo } from '@flotilla/runtime/client';
import type { SchedulerApi } from './scheduler-api.js';
import { textTable } from './text-table.js';
import { UsageError } from './usage-error.js';

/** The options `schedules` reads (strings as parsed from the command line). */
export interface SchedulesOptions {
  cron?: string | undefined;
  every?: string | undefined;
  'start-at'?: string | undefined;
  timezone?: string | undefined;
  conversation?: string | undefined;
  json?: boolean | undefined;
}

/** Runs `schedules <list | set | remove>`; returns the exit code. */
export async function schedulesCommand(
  api: SchedulerApi,
  rest: readonly string[],
  options: SchedulesOptions,
  io: { stdout: (text: string) => void; parseJson: (text: string, what: string) => unknown },
): Promise<number> {
  const [sub, id, agentId, inputText] = rest;
  const print = (value: unknown) => io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  if (sub === 'list') {
    const schedules = await api.listSchedules();
    if (options.json) print(schedules);
    else io.stdout(schedulesTable(schedules));
    return 0;
  }
  if (sub === 'set') {
    if (!id) throw new UsageError('Missing <scheduleId>.');
    if (!agentId) throw new UsageError('Missing <agentId>.');
    const body: Record<string, unknown> = { id, agentId };
    if (inputText !== undefined) body.input = io.parseJson(inputText, 'input');
    if (options.cron !== undefined) body.cron = options.cron;
    if (options.every !== undefined) body.everyMs = wholeNumber(options.every, '--every');
    if (options['start-at'] !== undefined) body.startAt = time(options['start-at']);
    if (options.timezone !== undefined) body.timezone = options.timezone;
    if (options.conversation !== undefined) body.conversationId = options.conversation;
    print(await api.saveSchedule(body));
    return 0;
  }
  if (sub === 'remove') {
    if (!id) throw new UsageError('Missing <scheduleId>.');
    print(await api.removeSchedule(id));
    return 0;
  }
  throw new UsageError(
    sub === undefined ? 'Missing schedules <list | set | remove>.' : `Unknown command "schedules ${sub}".`,
  );
}

const HEADERS = ['SCHEDULE', 'AGENT', 'WHEN', 'NEXT', 'SERVED'] as const;

/** One line per schedule, columns padded to their widest cell. */
export function schedulesTable(schedules: readonly ScheduleInfo[]): string {
  if (schedules.length === 0) return 'No schedules.\n';
  const rows = schedules.map((schedule) => [
    schedule.id,
    schedule.agentId,
    schedule.cron !== undefined
      ? `cron ${schedule.cron}${schedule.timezone ? ` (${schedule.timezone})` : ''}`
      : `every ${schedule.everyMs} ms`,
    schedule.nextRunAt === undefined ? '-' : new Date(schedule.nextRunAt).toISOString(),
    schedule.served ? 'yes' : 'no worker serves it',
  ]);
  return textTable(HEADERS, rows);
}

function wholeNumber(text: string, what: string): number {
  if (!/^\d+$/.test(text))
    throw new UsageError(`${what} must be a whole number of milliseconds; got "${text}".`);
  return Number(text);
}

/** Epoch ms, or an ISO date. */
function time(text: string): number {
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) throw new UsageError(`--start-at must be epoch ms or an ISO date; got "${text}".`);
  return at;
}
