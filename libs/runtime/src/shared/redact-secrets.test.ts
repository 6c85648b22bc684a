import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { serializeError } from '../errors/serialize-error.js';
import { REDACTED, redactingLogOptions, redactSecrets } from './redact-secrets.js';

const KEY = 'sk-proj-AbCdEf0123456789xyz';

describe('redactSecrets', () => {
  it.each([
    [`OpenAI said: Incorrect API key provided: ${KEY}.`, 'Incorrect API key provided: [redacted].'],
    ['Authorization: Bearer abc.def-ghi_123', 'Bearer [redacted]'],
    ['GET https://x.example/v1?key=AIzaSyA-very-secret-key-123456 failed', '?key=[redacted] failed'],
    ['{"api_key": "hunter2-hunter2"}', '{"api_key": "[redacted]"}'],
    ['x-api-key: 0123456789abcdef', 'x-api-key: [redacted]'],
    ['token=ghp_abcdefghijklmnopqrstuvwxyz0123', 'token=[redacted]'],
  ])('hides the credential in %j', (text, expected) => {
    const redacted = redactSecrets(text);
    expect(redacted).toContain(expected);
    expect(redacted).not.toMatch(/sk-proj|abc\.def|AIzaSy|hunter2|0123456789abcdef|ghp_/);
  });

  it('leaves text without credentials as it is', () => {
    const text = 'Run "r-1" failed: the tool "search" timed out after 5000 ms (key count: 3).';
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('serializeError', () => {
  it('stores no credential a provider echoed: message, stack and fields are redacted', () => {
    const error = Object.assign(new Error(`401 from provider: invalid key ${KEY}`), {
      body: { error: { message: `key ${KEY} is wrong` } },
    });
    const serialized = JSON.stringify(serializeError(error));
    expect(serialized).not.toContain(KEY);
    expect(serialized).toContain(REDACTED);
  });
});

describe('redactingLogOptions', () => {
  it('keeps credentials out of log lines: message, fields and errors', () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logger = pino({ ...redactingLogOptions() }, sink);
    logger.warn(
      { url: `https://api.example/?api_key=${KEY}`, err: new Error(`echo: Bearer ${KEY}`) },
      `got ${KEY}`,
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(KEY);
    const line = JSON.parse(lines[0] as string) as { msg: string; err: { message: string; stack: string } };
    expect(line.msg).toBe(`got ${REDACTED}`);
    expect(line.err.message).toBe(`echo: Bearer ${REDACTED}`);
    expect(line.err.stack).toContain('redact-secrets.test.ts');
  });
});
