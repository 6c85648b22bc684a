/**
 * `EmailAgent`: drafts an email with the model, which then calls `send_email`; that tool needs a
 * person's approval, so the run waits — holding no worker slot, surviving restarts — until
 * `client.approve(runId, callId, …)` (or `POST /runs/:id/approvals/:callId`, `flotilla approve`).
 * Approved, the email is sent once (with the person's edits when given); rejected, never, and the
 * model reads why. `sentEmails` is the outbox the tool writes to.
 */
import { createAgent, equipSystem, equipTool, promptChat } from '@flotilla/runtime';
import { z } from 'zod';

/** An email the tool sent (the example's outbox; a real tool would call a mail API). */
export interface SentEmail {
  to: string;
  subject: string;
  body: string;
  /** The tool call's idempotency key: a mail API deduplicates with it. */
  idempotencyKey: string;
}

export const sentEmails: SentEmail[] = [];

export const EmailAgent = createAgent({
  id: 'email',
  model: 'email-model',
  handler: async ({ to, about }: { to: string; about: string }) => {
    equipSystem('You write short, friendly emails and send them with send_email.');
    equipTool({
      name: 'send_email',
      description: 'Sends an email. A person approves every call before it runs.',
      parameters: z.object({ to: z.string(), subject: z.string(), body: z.string() }),
      needsApproval: true,
      handler: async (email, { idempotencyKey }) => {
        sentEmails.push({ ...email, idempotencyKey });
        return `sent to ${email.to}`;
      },
    });
    return (await promptChat({ message: `Write to ${to} about ${about}, then send it.` })).data;
  },
});
