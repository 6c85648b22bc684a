import type { AddressInfo } from 'node:net';
import { createClient } from '@flotilla/runtime/client';
import { openRedis, redactingLogOptions, WaitingRunsReport } from '@flotilla/runtime/internals';
import { BullMQOtel } from 'bullmq-otel';
import { type Logger, pino } from 'pino';
import { StreamCaps } from './http/stream-caps.js';
import { acceptedTokens, resolveSchedulerConfig, type SchedulerConfig } from './scheduler-config.js';
import { createSchedulerServer } from './scheduler-server.js';

/** The running scheduler: the HTTP API and its runtime client. */
export interface SchedulerApp {
  readonly config: SchedulerConfig;
  /** The bound port (the chosen one when the configured port was 0). */
  readonly port: number;
  readonly logger: Logger;
  /** Open event streams per principal. */
  readonly streams: StreamCaps;
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
  const logger = pino({
    name: 'flotilla-scheduler',
    level: config.runtime.logLevel,
    ...redactingLogOptions(),
  });
  const { runtime } = config;
  const client = createClient({
    connection: runtime.redisUrl,
    ...(runtime.redisTlsCaFile !== undefined && { redisTlsCaFile: runtime.redisTlsCaFile }),
    prefix: runtime.prefix,
    queueName: runtime.queueName,
    requestTimeoutMs: runtime.requestTimeoutMs,
    logger,
    // Every SSE stream reads through one blocking connection, not one each.
    shareEventReads: true,
    // A submit carries the request's trace context (when an OpenTelemetry SDK is registered).
    telemetry: new BullMQOtel({ tracerName: 'flotilla' }),
    // The payload and depth limits come from here, the same variables the workers read.
    env,
  });
  const streams = new StreamCaps(config.maxStreams);
  // Its own connection for scrapes: a metrics read never queues behind the API's commands.
  const metricsRedis = openRedis(runtime.redisUrl, {
    role: 'metrics',
    logger,
    tlsCaFile: runtime.redisTlsCaFile,
    redis: { maxRetriesPerRequest: 1, connectTimeout: 2000 },
  });
  const server = createSchedulerServer({
    waitingRuns: new WaitingRunsReport({
      redis: metricsRedis,
      prefix: runtime.prefix,
      queueName: runtime.queueName,
    }),
    streams,
    client,
    apiTokens: acceptedTokens(config),
    maxPayloadBytes: runtime.maxPayloadBytes,
    maxJsonDepth: runtime.maxJsonDepth,
    bodyTimeoutMs: config.bodyTimeoutMs,
    maxStreamsPerPrincipal: config.maxStreams,
    processMetrics: true,
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
    streams,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
      // Closing waits for Redis to confirm; during an outage it would wait for the outage.
      await withDeadline(client.close(), CLOSE_TIMEOUT_MS);
      metricsRedis.disconnect();
    },
  };
}

/** The longest `close()` waits for the client's connections to close cleanly. */
const CLOSE_TIMEOUT_MS = 3000;

/** `promise`, or nothing once `ms` passed (what is left is dropped with the process). */
async function withDeadline(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    promise.catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    }),
  ]);
  clearTimeout(timer);
}
