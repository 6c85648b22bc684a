/**
 * `patched()` across a deploy, with real workers on Redis: a run suspends on a child under the
 * old code; the worker is replaced by one with the new code; the child is let go and the parent
 * resumes on the new worker. A run recorded by the old code takes the old path (`false`) and
 * finishes; the same change without `patched` fails it with NonDeterminismError; a run started
 * on the new code records the marker and takes the new path again on resume; `deprecatePatch`
 * replays a marked run and runs fresh ones. And with the change right before the child call (or
 * the signal wait) the run is suspended on — nothing journaled there yet — `patched()` still
 * answers `false` on resume: the suspension stored where the run waited.
 */
import { randomUUID } from 'node:crypto';
import {
  type AnyAgent,
  callTool,
  createAgent,
  deprecatePatch,
  NonDeterminismError,
  patched,
  waitForSignal,
} from '@flotilla/runtime';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { createWorker, type FlotillaWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { failureOf } from '../support/failure-of.js';
import { useRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait-until.js';

const redis = useRedis(import.meta.filename);
let client: FlotillaClient;
let worker: FlotillaWorker | undefined;

/** Tool executions in this process (the workers run here), by run key. */
const executions: string[] = [];
/** What `patched('send-greeting')` answered, by run key and worker generation. */
const answers: string[] = [];

const greet = {
  name: 'greet',
  description: 'greets',
  parameters: z.object({ key: z.string(), text: z.string() }),
  handler: async ({ key, text }: { key: string; text: string }) => {
    executions.push(`${key}:${text}`);
    return text;
  },
};

/** Waits for signal `go`, so its parent stays suspended until the test lets it go. */
const Gate = createAgent({
  id: 'gate',
  // `shape` only tells two calls apart (their fingerprints differ).
  handler: async (_props: { shape?: number } | undefined) => {
    await waitForSignal('go');
    return 'gate open';
  },
});

type Version = 'old' | 'patched' | 'unguarded' | 'deprecated';

/** The parent agent as each version of the code writes it (same id: a deploy replaces it). */
function parentOf(version: Version) {
  return createAgent({
    id: 'greeter',
    handler: async ({ key }: { key: string }) => {
      let text = 'hello';
      if (version === 'unguarded' || version === 'deprecated') text = 'hello, friend';
      if (version === 'deprecated') deprecatePatch('send-greeting');
      if (version === 'patched') {
        const answer = patched('send-greeting');
        answers.push(`${key}:${answer}`);
        text = answer ? 'hello, friend' : 'hello';
      }
      const greeting = await callTool(greet, { key, text });
      const gate = await Gate();
      return `${greeting} / ${gate}`;
    },
  });
}

async function deploy(version: Version): Promise<void> {
  await deployAgents([parentOf(version), Gate]);
}

async function deployAgents(agents: AnyAgent[]): Promise<void> {
  await worker?.close();
  worker = createWorker({
    agents,
    connection: redis.url,
    prefix: redis.prefix,
    concurrency: 2,
    logger: pino({ level: 'silent' }),
  });
  await worker.waitUntilReady();
}

/** Submits a greeter run and waits until it is suspended on its gate child; returns it and the child's id. */
async function startSuspended(key: string, agentId = 'greeter') {
  const run = await client.submit<string>(agentId, { key });
  const childId = await waitUntil(
    async () => {
      const tree = await client.getRunTree(run.id);
      const child = tree?.root.children[0];
      return tree?.root.status === 'waiting' && child?.status === 'waiting' ? child.runId : undefined;
    },
    { what: `run ${run.id} suspended on its gate child` },
  );
  return { run, childId };
}

beforeAll(async () => {
  client = createClient({ connection: redis.url, prefix: redis.prefix });
});

afterAll(async () => {
  await worker?.close();
  await client?.close();
});

describe('a run recorded by the old code, resumed by the new code', () => {
  it('takes the old path (patched → false), replays its recorded tool call and finishes', async () => {
    const key = randomUUID();
    await deploy('old');
    const { run, childId } = await startSuspended(key);
    await deploy('patched');
    await client.signal(childId, 'go', null);
    expect(await run.result()).toBe('hello / gate open');
    expect(answers).toContain(`${key}:false`);
    // The greeting was sent once, by the old code, and replayed by the new.
    expect(executions.filter((entry) => entry.startsWith(key))).toEqual([`${key}:hello`]);
  });

  it('fails with NonDeterminismError naming the position when the change is not guarded', async () => {
    const key = randomUUID();
    await deploy('old');
    const { run, childId } = await startSuspended(key);
    await deploy('unguarded');
    await client.signal(childId, 'go', null);
    const error = await failureOf(run);
    expect(NonDeterminismError.is(error)).toBe(true);
    expect(error).toMatchObject({ position: 'root/agent:greeter:0/g0/tool:callTool-greet:0' });
  });
});

describe('a run started by the new code', () => {
  it('records the marker, takes the new path, and takes it again when it resumes', async () => {
    const key = randomUUID();
    await deploy('patched');
    const { run, childId } = await startSuspended(key);
    await client.signal(childId, 'go', null);
    expect(await run.result()).toBe('hello, friend / gate open');
    expect(answers.filter((answer) => answer.startsWith(key))).toEqual([`${key}:true`, `${key}:true`]);
    const journal = await redis.redis.hgetall(`${redis.prefix}:run:{r:${run.id}}:journal`);
    expect(JSON.parse(journal['root/agent:greeter:0/g0/patch:send-greeting'] ?? '{}')).toMatchObject({
      kind: 'patch',
    });
  });

  it('replays through deprecatePatch once the old branch is removed, and runs fresh runs on it', async () => {
    const key = randomUUID();
    await deploy('patched');
    const { run, childId } = await startSuspended(key);
    await deploy('deprecated');
    await client.signal(childId, 'go', null);
    expect(await run.result()).toBe('hello, friend / gate open');
    expect(executions.filter((entry) => entry.startsWith(key))).toEqual([`${key}:hello, friend`]);
    const fresh = await startSuspended(`${key}-fresh`);
    await client.signal(fresh.childId, 'go', null);
    expect(await fresh.run.result()).toBe('hello, friend / gate open');
  });
});

/** A child that answers at once (the new code's call in place of the gate). */
const Other = createAgent({ id: 'other', handler: async () => 'other done' });

type CallerVersion = 'old' | 'patched-other-agent' | 'patched-other-props';

/**
 * A parent whose change sits right before the child call a run of the old code is suspended
 * on: call another agent, or the gate with other props (a NonDeterminismError when replayed).
 */
function callerOf(version: CallerVersion) {
  return createAgent({
    id: 'caller',
    handler: async ({ key }: { key: string }) => {
      await callTool(greet, { key, text: 'hi' });
      if (version === 'old') return Gate({ shape: 1 });
      const answer = patched('call-other');
      answers.push(`${key}:${answer}`);
      if (!answer) return Gate({ shape: 1 });
      return version === 'patched-other-agent' ? Other() : Gate({ shape: 2 });
    },
  });
}

async function deployCaller(version: CallerVersion): Promise<void> {
  await deployAgents([callerOf(version), Gate, Other]);
}

/** The agents of the root's child runs. */
async function childAgents(runId: string): Promise<string[]> {
  return (await client.getRunTree(runId))?.root.children.map((child) => child.agentId) ?? [];
}

describe('patched() right before the child call the run is suspended on', () => {
  for (const version of ['patched-other-agent', 'patched-other-props'] as const) {
    it(`answers false on resume: no second child, no NonDeterminismError (${version})`, async () => {
      const key = randomUUID();
      await deployCaller('old');
      const { run, childId } = await startSuspended(key, 'caller');
      await deployCaller(version);
      await client.signal(childId, 'go', null);
      expect(await run.result()).toBe('gate open');
      expect(answers.filter((answer) => answer.startsWith(key))).toEqual([`${key}:false`]);
      expect(await childAgents(run.id)).toEqual(['gate']);
    });
  }

  it('answers true on a fresh run, which calls the other agent and takes the new path again on resume', async () => {
    const key = randomUUID();
    await deployCaller('patched-other-agent');
    const run = await client.submit<string>('caller', { key });
    expect(await run.result()).toBe('other done');
    // Asked again when the run resumed after its child: the marker keeps the answer.
    expect(answers.filter((answer) => answer.startsWith(key))).toEqual([`${key}:true`, `${key}:true`]);
    expect(await childAgents(run.id)).toEqual(['other']);
  });
});

describe('patched() right before the signal wait the run is parked on', () => {
  /** Waits for `go`; the new code would wait for `other` instead. */
  const waiterOf = (withPatch: boolean) =>
    createAgent({
      id: 'signal-waiter',
      handler: async ({ key }: { key: string }) => {
        let name = 'go';
        if (withPatch) {
          const answer = patched('wait-for-other');
          answers.push(`${key}:${answer}`);
          if (answer) name = 'other';
        }
        return waitForSignal(name);
      },
    });

  it('answers false on resume and takes the signal the run was waiting for; a fresh run answers true', async () => {
    const key = randomUUID();
    await deployAgents([waiterOf(false)]);
    const run = await client.submit<string>('signal-waiter', { key });
    await waitUntil(
      async () => ((await client.getRun(run.id))?.waitingFor?.kind === 'signal' ? true : undefined),
      { what: `run ${run.id} parked on its signal` },
    );
    await deployAgents([waiterOf(true)]);
    await client.signal(run.id, 'go', 'went');
    expect(await run.result()).toBe('went');
    expect(answers.filter((answer) => answer.startsWith(key))).toEqual([`${key}:false`]);

    const fresh = await client.submit<string>('signal-waiter', { key: `${key}-fresh` });
    await waitUntil(
      async () => ((await client.getRun(fresh.id))?.waitingFor?.detail === 'other' ? true : undefined),
      { what: `run ${fresh.id} parked on signal "other"` },
    );
    await client.signal(fresh.id, 'other', 'new path');
    expect(await fresh.result()).toBe('new path');
  });
});
