/**
 * `node examples/dist/approval.js`: human approval of a tool call. A worker and a client in this
 * process, on `REDIS_URL` and `FLOTILLA_PREFIX`: the email agent drafts an email and asks to
 * send it; the run waits (status `waiting`, `waitingFor.kind` `approval`, no worker slot held)
 * until this script approves it with an edited subject; the email is sent once. A second run is
 * rejected: nothing is sent and the model reads the reason.
 */
import { createClient, type FlotillaClient, type RunRecord } from '@flotilla/runtime/client';
import { createWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { EmailAgent, sentEmails } from './agents/email-agent.js';
import { runIfMain } from './mcp/run-if-main.js';
import { createEmailModel } from './models/email-model.js';

/** Submits two email runs, approves the first (edited) and rejects the second, printing each step. */
export async function runApprovalExample(print: (line: string) => void): Promise<void> {
  const worker = createWorker({
    agents: [EmailAgent],
    models: { 'email-model': createEmailModel() },
    logger: pino({ level: 'warn' }, pino.destination(2)),
  });
  const client = createClient();
  try {
    const approved = await client.submit<string>(EmailAgent, { to: 'ada@example.com', about: 'the launch' });
    const pending = await approvalOf(client, approved.id);
    print(`waiting for approval: ${pending.waitingFor?.detail}`);
    const args = pending.waits?.[0]?.info?.args as { to: string; subject: string; body: string };
    await client.approve(approved.id, 'call_send', {
      approved: true,
      args: { ...args, subject: 'Launch day!' },
    });
    print(await approved.result());
    print(`outbox: ${sentEmails.map((email) => `${email.to} "${email.subject}"`).join(', ')}`);

    const rejected = await client.submit<string>(EmailAgent, { to: 'all@example.com', about: 'the launch' });
    await approvalOf(client, rejected.id);
    await client.approve(rejected.id, 'call_send', { approved: false, reason: 'not to the whole company' });
    print(await rejected.result());
    print(`outbox: ${sentEmails.length} email(s)`);
  } finally {
    await client.close();
    await worker.close();
  }
}

/** The run's record once it waits for an approval (a dashboard or a person would list these). */
async function approvalOf(client: FlotillaClient, runId: string): Promise<RunRecord> {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    const record = await client.getRun(runId);
    if (record?.waitingFor?.kind === 'approval') return record;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`run ${runId} did not ask for approval within 30 s`);
}

runIfMain(import.meta.url, () => runApprovalExample((line) => console.log(line)));
