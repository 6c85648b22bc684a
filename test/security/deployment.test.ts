/**
 * The compose file, read as data (no Docker engine here): Redis is not published and requires a
 * password, every service reaches it with credentials, and no secret has an empty default
 * (`${VAR:-}` would start Redis or the API open when the variable is missing).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

interface Service {
  command?: string | string[];
  ports?: unknown[];
  environment?: Record<string, string> | string[];
}

const text = readFileSync(join(import.meta.dirname, '../../docker-compose.yml'), 'utf8');
const compose = parse(text) as { services: Record<string, Service> };
const services = Object.entries(compose.services);
const redisService = compose.services.redis as Service;

function environmentOf(service: Service): Record<string, string> {
  const { environment = {} } = service;
  if (!Array.isArray(environment)) return environment;
  return Object.fromEntries(
    environment.map((entry) => entry.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
}

/** Compose's interpolation of `${VAR}`, `${VAR:?message}` (missing → error) and `$$`. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\$|\$\{(\w+)(?::\?[^}]*)?\}/g, (match, name?: string) => {
    if (match === '$$') return '$';
    const found = env[name ?? ''];
    if (found === undefined || found === '') throw new Error(`${name} is required`);
    return found;
  });
}

describe('docker-compose.yml', () => {
  it('publishes no Redis port: Redis is reachable on the compose network only', () => {
    expect(redisService.ports).toBeUndefined();
    expect(text).not.toMatch(/["']?\d+:6379["']?/);
  });

  it('starts Redis with a password it requires from the environment', () => {
    const command = [redisService.command ?? []].flat().join(' ');
    expect(command).toMatch(/--requirepass\s+"?\$\$REDIS_PASSWORD"?/);
    expect(environmentOf(redisService).REDIS_PASSWORD).toMatch(/^\$\{REDIS_PASSWORD:\?[^}]+\}$/);
  });

  it('gives every service that uses Redis a REDIS_URL with the password, and none without', () => {
    const users = services.filter(([, service]) => environmentOf(service).REDIS_URL !== undefined);
    expect(users.map(([name]) => name).sort()).toEqual(['scheduler', 'worker']);
    for (const [, service] of users) {
      const url = new URL(interpolate(environmentOf(service).REDIS_URL ?? '', { REDIS_PASSWORD: 'p4ss' }));
      expect(url.protocol).toMatch(/^rediss?:$/);
      expect(url.password).toBe('p4ss');
      expect(url.hostname).toBe('redis');
    }
  });

  it('refuses to start without the secrets: no empty defaults, the API token required', () => {
    expect(text).not.toMatch(/:-\}/);
    expect(text).not.toMatch(/\$\{\w*(TOKEN|PASSWORD|SECRET|KEY)\w*:?-/i);
    const scheduler = environmentOf(compose.services.scheduler as Service);
    expect(scheduler.FLOTILLA_API_TOKEN).toMatch(/^\$\{FLOTILLA_API_TOKEN:\?[^}]+\}$/);
    expect(() => interpolate(scheduler.FLOTILLA_API_TOKEN ?? '', {})).toThrow(/required/);
    // Every value that takes a variable fails without it (no `${VAR}` silently empty either).
    const interpolated = services.flatMap(([, service]) =>
      Object.values(environmentOf(service)).filter((value) => value.includes('${')),
    );
    expect(interpolated.length).toBeGreaterThanOrEqual(4);
    for (const value of interpolated) {
      expect(value).not.toMatch(/\$\{\w+\}/);
      expect(() => interpolate(value, {})).toThrow(/required/);
    }
  });
});
