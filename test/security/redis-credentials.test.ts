/**
 * The runtime on a Redis that requires a password, and on one that speaks TLS only with a
 * certificate signed by a private CA (made here with `openssl`): a worker and a client run an
 * agent end to end with the right credentials and CA, and fail at once with `RedisAuthError`
 * with the wrong ones. Each test starts its own `redis-server`.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RedisAuthError } from '@flotilla/runtime';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { createWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EchoAgent } from '../runtime/fixtures/agents.js';
import { type RedisServerProcess, startRedisServer } from '../support/redis-server.js';

const PASSWORD = 'a-long-redis-password-0123456789';
const silent = pino({ level: 'silent' });

/** Runs the echo agent through a worker and a client on `url`, as a deployment would. */
async function echoThrough(url: string, redisTlsCaFile?: string): Promise<unknown> {
  const tls = redisTlsCaFile === undefined ? {} : { redisTlsCaFile };
  const worker = createWorker({
    agents: [EchoAgent],
    connection: url,
    prefix: 'creds',
    logger: silent,
    env: {},
    ...tls,
  });
  const client = createClient({ connection: url, prefix: 'creds', logger: silent, env: {}, ...tls });
  try {
    await worker.waitUntilReady();
    return await (await client.submit('echo', { over: url.split(':')[0] })).result();
  } finally {
    await client.close();
    await worker.close();
  }
}

/** The error a client call fails with on `url`. */
async function refusal(url: string, options: { redisTlsCaFile?: string } = {}): Promise<unknown> {
  const client: FlotillaClient = createClient({
    connection: url,
    prefix: 'creds',
    logger: silent,
    env: {},
    requestTimeoutMs: 20_000,
    ...options,
  });
  try {
    return await client.getRun('any').then(
      () => new Error('the call was answered'),
      (error: unknown) => error,
    );
  } finally {
    await client.close();
  }
}

describe('a Redis that requires a password', () => {
  let server: RedisServerProcess;
  beforeAll(async () => {
    server = await startRedisServer({ password: PASSWORD });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('serves a worker and a client given the password in REDIS_URL', async () => {
    expect(server.url).toContain(`:${PASSWORD}@`);
    expect(await echoThrough(server.url)).toEqual({ echoed: { over: 'redis' } });
  });

  it('refuses a wrong password with RedisAuthError at once, naming the address but never the password', async () => {
    const error = await refusal(server.url.replace(PASSWORD, 'wrong-password'));
    expect(RedisAuthError.is(error)).toBe(true);
    expect((error as Error).message).toContain(`127.0.0.1:${server.port}`);
    expect((error as Error).message).not.toContain('wrong-password');
  });

  it('refuses a missing password with RedisAuthError', async () => {
    const error = await refusal(server.url.replace(`:${PASSWORD}@`, ''));
    expect(RedisAuthError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/NOAUTH/);
  });
});

describe('a Redis that speaks TLS with a private CA', () => {
  let dir: string;
  let server: RedisServerProcess;
  const file = (name: string) => join(dir, name);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'flotilla-tls-'));
    const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
    openssl(
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=flotilla test CA'],
      ...['-keyout', file('ca.key'), '-out', file('ca.crt')],
    );
    openssl(
      ...['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1'],
      ...['-keyout', file('server.key'), '-out', file('server.csr')],
    );
    writeFileSync(file('san.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    openssl(
      ...['x509', '-req', '-in', file('server.csr'), '-CA', file('ca.crt'), '-CAkey', file('ca.key')],
      ...['-CAcreateserial', '-days', '1', '-extfile', file('san.cnf'), '-out', file('server.crt')],
    );
    // Another CA, which did not sign the server's certificate.
    openssl(
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=other CA'],
      ...['-keyout', file('other.key'), '-out', file('other.crt')],
    );
    server = await startRedisServer({
      password: PASSWORD,
      tls: { certFile: file('server.crt'), keyFile: file('server.key'), caFile: file('ca.crt') },
    });
  });
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('serves a worker and a client over rediss:// given the CA', async () => {
    expect(server.url.startsWith('rediss://')).toBe(true);
    expect(await echoThrough(server.url, file('ca.crt'))).toEqual({ echoed: { over: 'rediss' } });
  });

  it('takes the CA from FLOTILLA_REDIS_TLS_CA_FILE', async () => {
    const client = createClient({
      connection: server.url,
      logger: silent,
      env: { FLOTILLA_REDIS_TLS_CA_FILE: file('ca.crt') },
    });
    try {
      expect(await client.getRun('nothing-here')).toBeUndefined();
    } finally {
      await client.close();
    }
  });

  it('refuses a server its CA did not sign with RedisAuthError', async () => {
    const error = await refusal(server.url, { redisTlsCaFile: file('other.crt') });
    expect(RedisAuthError.is(error)).toBe(true);
    expect((error as Error).message).toContain('FLOTILLA_REDIS_TLS_CA_FILE');
  });

  it('refuses a CA file that cannot be read with InvalidConfigError naming the variable', () => {
    expect(() =>
      createClient({ connection: server.url, logger: silent, env: {}, redisTlsCaFile: file('missing.crt') }),
    ).toThrow(
      expect.objectContaining({ name: 'InvalidConfigError', variable: 'FLOTILLA_REDIS_TLS_CA_FILE' }),
    );
  });
});
