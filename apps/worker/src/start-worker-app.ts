import { RUNS_WAITING_HELP, WaitingRunsReport, watchConnection } from '@flotilla/runtime/internals';
import { connectRedis, createWorker, type FlotillaWorker, redisTlsOptions } from '@flotilla/runtime/worker';
import { BullMQOtel } from 'bullmq-otel';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Gauge } from 'prom-client';
import { createWorkerLogger } from './create-worker-logger.js';
import { type EventLoopWatchdog, startEventLoopWatchdog } from './event-loop-watchdog.js';
import { type HealthReport, type HealthServer, startHealthServer } from './health-server.js';
import { loadAgentModules } from './load-agent-modules.js';
import { registerQueueMetrics } from './queue-metrics.js';
import { RunMetrics } from './run-metrics.js';
import { watchedQueues } from './watched-queues.js';
import { resolveWorkerAppConfig, type WorkerAppConfig } from './worker-app-config.js';

/** The running worker process: the runtime worker plus its health endpoint. */
export interface WorkerApp {
  readonly config: WorkerAppConfig;
  readonly worker: FlotillaWorker;
  readonly health: HealthServer;
  readonly logger: Logger;
  /** Stops taking runs, lets active runs finish, then closes the endpoint and connections. */
  close(): Promise<void>;
}

/**
 * Starts the worker app from `env`: resolves the configuration once, loads the agent modules,
 * starts the health endpoint (503 until the worker is ready) and the runtime worker.
 * @throws InvalidConfigError naming the variable when the configuration is invalid
 * @throws AgentModuleError when an agent module cannot be used
 */
export async function startWorkerApp(
  env: Readonly<Record<string, string | undefined>> = process.env,
): Promise<WorkerApp> {
  const config = resolveWorkerAppConfig(env);
  const { agents, models } = await loadAgentModules(config.agentModules);
  const agentIds = agents.map((agent) => agent.id);
  const metrics = new RunMetrics({ servedAgents: agentIds, processMetrics: true }).subscribe();
  const logger = createWorkerLogger(config.runtime.logLevel);
  const { runtime } = config;
  const worker = createWorker({
    agents,
    models,
    logger,
    connection: runtime.redisUrl,
    ...(runtime.redisTlsCaFile !== undefined && { redisTlsCaFile: runtime.redisTlsCaFile }),
    prefix: runtime.prefix,
    queueName: runtime.queueName,
    concurrency: runtime.workerConcurrency,
    ...(runtime.buildId !== undefined && { buildId: runtime.buildId }),
    versioning: runtime.versioning,
    compatibleWith: runtime.compatibleWith,
    maxPayloadBytes: runtime.maxPayloadBytes,
    maxJsonDepth: runtime.maxJsonDepth,
    lockDurationMs: runtime.lockDurationMs,
    stalledIntervalMs: runtime.stalledIntervalMs,
    maxStalledCount: runtime.maxStalledCount,
    eventStreamMaxLength: runtime.eventStreamMaxLength,
    runRetentionSeconds: runtime.runRetentionSeconds,
    journalRetentionSeconds: runtime.journalRetentionSeconds,
    // Runs still active near the shutdown timeout are handed back before the process exits.
    shutdownGraceMs: Math.max(0, config.shutdownTimeoutMs - SHUTDOWN_HAND_BACK_MARGIN_MS),
    conversationRetentionSeconds: runtime.conversationRetentionSeconds,
    conversationChunkBytes: runtime.conversationChunkBytes,
    env: {}, // resolved above, once; nothing is read again
    ...metrics.hooks(),
    // Jobs carry the trace context; spans are recorded only once an OpenTelemetry SDK is registered.
    telemetry: new BullMQOtel({ tracerName: 'flotilla' }),
  });
  // Its own connection, so a health probe never queues behind a blocking BullMQ command.
  const probe = connectRedis(runtime.redisUrl, {
    ...redisTlsOptions(runtime.redisUrl, runtime.redisTlsCaFile),
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
  });
  // Reported by /healthz, and with the worker's connections in the one outage log line.
  watchConnection(probe, { role: 'health-probe', logger });
  const queueMetrics = registerQueueMetrics(
    metrics.registry,
    watchedQueues(runtime.queueName, agentIds),
    probe,
    {
      prefix: runtime.prefix,
      timeoutMs: 1000,
    },
  );
  const waitingRuns = new WaitingRunsReport({
    redis: probe,
    prefix: runtime.prefix,
    queueName: runtime.queueName,
    servedAgents: agentIds,
  });
  new Gauge({
    name: 'flotilla_runs_waiting',
    help: RUNS_WAITING_HELP,
    labelNames: ['agent', 'kind'] as const,
    registers: [metrics.registry],
    async collect() {
      await waitingRuns.report(this);
    },
  });
  new Gauge({
    name: 'flotilla_worker_up',
    help: '1 while the worker takes runs.',
    registers: [metrics.registry],
    collect() {
      this.set(worker.state === 'running' && ready ? 1 : 0);
    },
  });
  new Gauge({
    name: 'flotilla_worker_concurrency',
    help: 'Runs this worker executes at once.',
    registers: [metrics.registry],
  }).set(runtime.workerConcurrency);
  const watchdog = startEventLoopWatchdog({ blockMs: config.eventLoopBlockMs });
  let ready = false;
  const health = await startHealthServer({
    port: config.healthPort,
    host: config.healthHost,
    health: () => healthReport(worker, probe, ready, loopHealth(watchdog, config.eventLoopBlockMs)),
    metrics: async () => ({ contentType: metrics.registry.contentType, text: await metrics.render() }),
  });
  logger.info({ port: health.port }, 'health endpoint listening');
  await worker.waitUntilReady();
  ready = true;
  logger.info(
    {
      agents: agents.map((agent) => agent.id),
      models: Object.keys(models),
      queue: runtime.queueName,
      prefix: runtime.prefix,
      concurrency: runtime.workerConcurrency,
    },
    'worker ready',
  );
  return {
    config,
    worker,
    health,
    logger,
    close: async () => {
      await worker.close();
      await health.close();
      metrics.close();
      await queueMetrics.close();
      await probe.quit().catch(() => probe.disconnect());
      await watchdog.stop();
    },
  };
}

/** Time left for the handed-back runs' moves and the connections' close before the process exits. */
const SHUTDOWN_HAND_BACK_MARGIN_MS = 2000;

/** The loop delay since the previous probe, and whether it stayed under half the block threshold. */
function loopHealth(watchdog: EventLoopWatchdog, blockMs: number) {
  const eventLoopDelayMs = watchdog.takeMaxDelayMs();
  return { eventLoopDelayMs, ok: blockMs === 0 || eventLoopDelayMs < blockMs / 2 };
}

async function healthReport(
  worker: FlotillaWorker,
  probe: Redis,
  ready: boolean,
  loop: { eventLoopDelayMs: number; ok: boolean },
): Promise<HealthReport> {
  const redis = await Promise.race([
    probe.ping().then(
      () => 'ok',
      () => 'unreachable',
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), 1000).unref()),
  ]);
  return {
    healthy: ready && worker.state === 'running' && redis === 'ok' && loop.ok,
    state: ready ? worker.state : 'starting',
    redis,
    eventLoopDelayMs: loop.eventLoopDelayMs,
  };
}
