import type { AddressInfo } from 'node:net';
import { createClient } from '@flotilla/runtime/client';
import { type Logger, pino } from 'pino';
import { acceptedTokens, resolveSchedulerConfig, type SchedulerConfig } from './scheduler-config.js';
import { createSchedulerServer } from './scheduler-server.js';

/** The running scheduler: the HTTP API and its runtime client. */
export interface SchedulerApp {
  readonly config: SchedulerConfig;
  /** The bound port (the chosen one when the configured port was 0). */
  readonly port: number;
  readonly logger: Logger;
  /** Stops accepting connections, ends open ones (SSE streams too), closes the client. */
  close(): Promise<void>;
}

/**
 * Starts the scheduler from `env`: resolves the configuration once, opens the runtime client
 * and listens.
 * @throws InvalidConfigError naming the variable when the configuration is invalid
 */
export async function startSchedulerApp(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<SchedulerApp> {
  const config = resolveSchedulerConfig(env);
  const logger = pino({ name: 'flotilla-scheduler', level: config.runtime.logLevel });
  const { runtime } = config;
  const client = createClient({
    connection: runtime.redisUrl,
    ...(runtime.redisTlsCaFile !== undefined && { redisTlsCaFile: runtime.redisTlsCaFile }),
    prefix: runtime.prefix,
    queueName: runtime.queueName,
    requestTimeoutMs: runtime.requestTimeoutMs,
    logger,
    env: {},
  });
  const server = createSchedulerServer({
    client,
    apiTokens: acceptedTokens(config),
    maxBodyBytes: config.maxBodyBytes,
    logger,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  logger.info(
    {
      port,
      host: config.host,
      auth: acceptedTokens(config).length > 0 ? 'bearer tokens' : 'loopback only',
      tokens: acceptedTokens(config).map(({ name, tenant }) => (tenant ? `${name} (${tenant})` : name)),
      prefix: runtime.prefix,
    },
    'scheduler listening',
  );
  return {
    config,
    port,
    logger,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      await client.close();
    },
  };
}
