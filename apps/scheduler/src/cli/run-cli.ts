import { parseArgs } from 'node:util';
import { ApiRequestError } from './api-request-error.js';
import { replayCommand } from './replay-command.js';
import { runsCommand } from './runs-command.js';
import { SchedulerApi, type SubmitBody } from './scheduler-api.js';
import { SchedulerUnreachableError } from './scheduler-unreachable-error.js';
import { schedulesCommand } from './schedules-command.js';
import { UsageError } from './usage-error.js';
import { workersTable } from './workers-table.js';

/** Where the CLI reads and writes; the process's streams in `flotilla.ts`, buffers in tests. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** The whole of standard input (for `submit <agent> -`). */
  readStdin(): Promise<string>;
}

/** The help text. */
export const USAGE = `Usage: flotilla <command> [options]

Commands:
  submit <agentId> [input]       queue a run; input is JSON text, or - to read it from stdin
      --run-id <id>              idempotency: an existing run id returns that run (and the
                                 submission is retried across a scheduler restart)
      --conversation <id>        resume (or start) a stored conversation
      --on-conflict <how>        when a run holds the conversation: enqueue (default), reject,
                                 interrupt or rollback
      --scope <json>             scope layers, a JSON array of objects
      --wait                     follow the run to its end (reconnecting across a scheduler
                                 restart), print its record, exit 1 unless it succeeded
  status <runId>                 print the run record
  events <runId>                 print the run's events as JSON lines, live, until run-end
                                 (reconnects with Last-Event-ID across a scheduler restart)
  runs list                      a table of runs, newest first
      --status <status>          queued, running, waiting, succeeded, failed or cancelled
      --agent <agentId>          runs of this agent
      --root <runId>             the runs of this tree (the root included)
      --conversation <id>        runs on this conversation
      --schedule <id>            the firings of this schedule
      --tenant <tenant>          this tenant's runs (a token without a tenant only)
      --limit <n>                at most n runs (1 to 1000, default 50)
      --cursor <cursor>          the next page (printed after a full page)
      --json                     print { runs, nextCursor } as JSON instead
  runs tree <runId>              the run and its child runs, indented; printed again as it
                                 changes until the run ends; exit 0 if it succeeded, else 1
      --once                     print it once and exit (1 while it has not succeeded)
      --interval <ms>            how often to read it again (default 1000)
  runs export <runId>            print the run as a run export (input, journal, child run
                                 outcomes, memory, build) to replay it against new code
      --out <file>               write it to <file> instead
  replay <file...>               replay the current code against run exports, in this
                                 process (no scheduler, Redis or model needed); prints each
                                 divergence's position and fingerprints; exit 1 on any
      --agents <module>          the agent module (exports agents, optionally models), as
                                 FLOTILLA_AGENTS names it; repeat for several
  cancel <runId>                 cancel the run
  approve <runId> <callId>       approve a tool call that awaits approval (see runs list
                                 --status waiting); the tool then runs once
      --args <json>              run it with these arguments instead of the model's
      --reason <text>            why (kept in the approval-resolved event)
  reject <runId> <callId>        reject it: the tool never runs, the model reads the reason
      --reason <text>            why
  signal <runId> <name> [payload]
                                 send a signal (payload is JSON text, or - for stdin;
                                 default null) to the run's waitForSignal(name)
      --id <id>                  the signal's id: a repeated id is ignored
  conversation <id>              print a stored conversation
      --version <n>              at this version (default: the latest)
  schedules list                 a table of the schedules (when, next firing, whether a worker
                                 serves the agent); --json for the list as JSON
  schedules set <id> <agentId> [input]
                                 create or replace a schedule firing runs of agentId with input
      --cron <pattern>           on a cron pattern (5 fields, or 6 with seconds)
      --every <ms>               or every <ms> milliseconds
      --start-at <time>          no firing before this time (epoch ms or ISO date)
      --timezone <zone>          the IANA time zone of --cron (default UTC)
      --conversation <id>        every firing continues this conversation
  schedules remove <id>          remove a schedule (no more firings)
  workers                        print the live workers as a table (agents, concurrency, active
                                 runs, heartbeat age); --json for the list as JSON

Options:
  --url <url>                    the scheduler API (FLOTILLA_API_URL, default http://127.0.0.1:8080)
  --token <token>                bearer token (FLOTILLA_API_TOKEN)
`;

/**
 * Runs one `flotilla` command and returns the exit code: 0 on success (`--help` included), 1 when
 * the API answered an error (printed as \`Name: message\`) or a waited run did not succeed, 2 on a
 * usage error (no command at all included: the usage goes to stderr).
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (UsageError.is(error)) {
      io.stderr(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (ApiRequestError.is(error) || SchedulerUnreachableError.is(error)) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    io.stderr(`flotilla: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandLine(argv);
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  // No command is a usage error (exit 2), so a script that forgot its arguments does not pass.
  if (command === undefined) throw new UsageError('Missing <command>.');
  const api = new SchedulerApi({
    url: values.url ?? io.env.FLOTILLA_API_URL ?? 'http://127.0.0.1:8080',
    token: values.token ?? io.env.FLOTILLA_API_TOKEN,
  });
  const print = (value: unknown) => io.stdout(`${JSON.stringify(value, null, 2)}\n`);
  switch (command) {
    case 'submit':
      return submit(api, rest, values, io, print);
    case 'status':
      print(await api.getRun(argument(rest, 'runId')));
      return 0;
    case 'events':
      for await (const event of api.events(argument(rest, 'runId'))) io.stdout(`${JSON.stringify(event)}\n`);
      return 0;
    case 'runs':
      return runsCommand(api, rest, values, io.stdout);
    case 'replay':
      return replayCommand(rest, values.agents ?? [], io);
    case 'cancel':
      print(await api.cancel(argument(rest, 'runId')));
      return 0;
    case 'approve':
    case 'reject':
      print(
        await api.answerApproval(
          argument(rest, 'runId'),
          argumentAt(rest, 1, 'callId'),
          answerOf(command, values),
        ),
      );
      return 0;
    case 'signal': {
      const payloadText = rest[2] === '-' ? await io.readStdin() : rest[2];
      const payload = payloadText === undefined ? null : json(payloadText, 'payload');
      print(await api.signal(argument(rest, 'runId'), argumentAt(rest, 1, 'name'), payload, values.id));
      return 0;
    }
    case 'conversation':
      print(await api.getConversation(argument(rest, 'conversationId'), version(values.version)));
      return 0;
    case 'schedules':
      return schedulesCommand(api, rest, values, { stdout: io.stdout, parseJson: json });
    case 'workers': {
      const workers = await api.listWorkers();
      if (values.json) print(workers);
      else io.stdout(workersTable(workers, Date.now()));
      return 0;
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

type CliValues = ReturnType<typeof parseCommandLine>['values'];

async function submit(
  api: SchedulerApi,
  rest: string[],
  values: CliValues,
  io: CliIo,
  print: (value: unknown) => void,
): Promise<number> {
  const body: SubmitBody = { agentId: argument(rest, 'agentId') };
  const inputText = rest[1] === '-' ? await io.readStdin() : rest[1];
  if (inputText !== undefined) body.input = json(inputText, 'input');
  if (values['run-id'] !== undefined) body.runId = values['run-id'];
  if (values.conversation !== undefined) body.conversationId = values.conversation;
  if (values['on-conflict'] !== undefined) body.onConflict = values['on-conflict'];
  if (values.scope !== undefined) body.scope = json(values.scope, '--scope') as Record<string, unknown>[];
  // With a run id the submission is idempotent, so it may be repeated across a restart.
  const { runId } =
    body.runId === undefined
      ? await api.submit(body)
      : await api.submitPatiently({ ...body, runId: body.runId });
  if (!values.wait) {
    print({ runId });
    return 0;
  }
  for await (const event of api.events(runId)) if (event.type === 'run-end') break;
  const record = await api.getRunPatiently(runId);
  print(record);
  return record.status === 'succeeded' ? 0 : 1;
}

function parseCommandLine(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        url: { type: 'string' },
        token: { type: 'string' },
        'run-id': { type: 'string' },
        conversation: { type: 'string' },
        'on-conflict': { type: 'string' },
        json: { type: 'boolean' },
        scope: { type: 'string' },
        version: { type: 'string' },
        wait: { type: 'boolean' },
        status: { type: 'string' },
        agent: { type: 'string' },
        root: { type: 'string' },
        tenant: { type: 'string' },
        limit: { type: 'string' },
        cursor: { type: 'string' },
        once: { type: 'boolean' },
        interval: { type: 'string' },
        args: { type: 'string' },
        reason: { type: 'string' },
        id: { type: 'string' },
        schedule: { type: 'string' },
        cron: { type: 'string' },
        every: { type: 'string' },
        'start-at': { type: 'string' },
        timezone: { type: 'string' },
        out: { type: 'string' },
        agents: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

function answerOf(command: 'approve' | 'reject', values: CliValues) {
  const answer: { approved: boolean; args?: Record<string, unknown>; reason?: string } = {
    approved: command === 'approve',
  };
  if (values.args !== undefined) {
    if (command === 'reject') throw new UsageError('--args is for approve only.');
    const args = json(values.args, '--args');
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      throw new UsageError("--args must be a JSON object of the tool's arguments.");
    answer.args = args as Record<string, unknown>;
  }
  if (values.reason !== undefined) answer.reason = values.reason;
  return answer;
}

function argumentAt(rest: string[], index: number, name: string): string {
  const value = rest[index];
  if (value === undefined || value === '') throw new UsageError(`Missing <${name}>.`);
  return value;
}

function argument(rest: string[], name: string): string {
  const value = rest[0];
  if (value === undefined || value === '') throw new UsageError(`Missing <${name}>.`);
  return value;
}

function json(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(
      `${what} is not JSON (${(error as Error).message}). Quote it, e.g. '{"question":"…"}'.`,
    );
  }
}

function version(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text)) throw new UsageError(`--version must be a whole number; got "${text}".`);
  return Number(text);
}
