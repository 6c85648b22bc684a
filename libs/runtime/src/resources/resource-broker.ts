/**
 * The owner side of cross-worker resources: each worker runs one broker that
 * - keeps a heartbeat key alive (`SET … PX heartbeatTtlMs`, refreshed every
 *   `heartbeatIntervalMs`), so callers can tell a live owner from a dead one;
 * - BLPOPs call requests from its request list, runs each method on the instance its registry
 *   holds, and LPUSHes the JSON result (or the serialized error) to the request's reply list,
 *   which expires if nobody reads it.
 * The caller side is {@link ResourceBrokerClient}.
 */
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { openRedis } from '../config/open-redis.js';
import { serializeError } from '../errors/serialize-error.js';
import { resourceBrokerKeys, resourceReplyKey } from '../keys.js';
import {
  decodeResourceCallArgs,
  parseResourceCallRequest,
  type ResourceCallReply,
  type ResourceCallRequest,
} from './resource-call.js';
import { ResourceOwnerGoneError } from './resource-errors.js';
import type { ResourceRegistry } from './resource-registry.js';

/** Timing of the broker; the same values must be used fleet-wide. */
export interface ResourceBrokerTiming {
  /** How often the heartbeat is refreshed. @default 1000 */
  heartbeatIntervalMs?: number;
  /** How long a heartbeat lives; a worker silent this long counts as gone. @default 5000 */
  heartbeatTtlMs?: number;
  /** How long a caller waits for a reply from a live owner. @default 60000 */
  callTimeoutMs?: number;
}

/** {@link ResourceBrokerTiming} with defaults filled in. */
export interface ResolvedBrokerTiming {
  heartbeatIntervalMs: number;
  heartbeatTtlMs: number;
  callTimeoutMs: number;
}

/** Fills the defaults of {@link ResourceBrokerTiming}. */
export function resolveBrokerTiming(timing: ResourceBrokerTiming = {}): ResolvedBrokerTiming {
  return {
    heartbeatIntervalMs: timing.heartbeatIntervalMs ?? 1000,
    heartbeatTtlMs: timing.heartbeatTtlMs ?? 5000,
    callTimeoutMs: timing.callTimeoutMs ?? 60_000,
  };
}

/** What a {@link ResourceBroker} serves. */
export interface ResourceBrokerOptions {
  registry: ResourceRegistry;
  /** Commands (heartbeat, replies); a duplicate is opened for the blocking reads. */
  redis: Redis;
  prefix: string;
  timing?: ResourceBrokerTiming;
  logger?: Logger;
}

/** Serves calls on this worker's resources to runs on other workers. */
export class ResourceBroker {
  readonly #registry: ResourceRegistry;
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #timing: ResolvedBrokerTiming;
  readonly #logger: Logger | undefined;
  readonly #keys: ReturnType<typeof resourceBrokerKeys>;
  readonly #inFlight = new Set<Promise<void>>();
  #blocking: Redis | undefined;
  #heartbeat: NodeJS.Timeout | undefined;
  #loop: Promise<void> | undefined;
  #stopping = false;

  constructor(options: ResourceBrokerOptions) {
    this.#registry = options.registry;
    this.#redis = options.redis;
    this.#prefix = options.prefix;
    this.#timing = resolveBrokerTiming(options.timing);
    this.#logger = options.logger;
    this.#keys = resourceBrokerKeys(options.prefix, options.registry.workerId);
  }

  /** Writes the first heartbeat, then serves requests until {@link close}. */
  async start(): Promise<void> {
    if (this.#loop) return;
    await this.#beat();
    this.#heartbeat = setInterval(() => {
      this.#beat().catch((error: unknown) => this.#logger?.warn({ err: error }, 'resource heartbeat failed'));
    }, this.#timing.heartbeatIntervalMs);
    this.#heartbeat.unref();
    this.#blocking = openRedis(this.#redis, { role: 'resource-broker', logger: this.#logger });
    this.#loop = this.#serve(this.#blocking);
  }

  /** Stops serving, waits for calls in flight (up to `callTimeoutMs`), and deletes the heartbeat (callers see the owner gone). */
  async close(): Promise<void> {
    this.#stopping = true;
    clearInterval(this.#heartbeat);
    this.#blocking?.disconnect();
    await this.#loop;
    // Callers stop waiting after callTimeoutMs, so a call still running then has nobody to answer.
    await untilSettledOrTimeout([...this.#inFlight], this.#timing.callTimeoutMs);
    await this.#redis.del(this.#keys.heartbeat).catch(() => undefined);
  }

  async #beat(): Promise<void> {
    await this.#redis.set(this.#keys.heartbeat, String(Date.now()), 'PX', this.#timing.heartbeatTtlMs);
  }

  async #serve(blocking: Redis): Promise<void> {
    while (!this.#stopping) {
      let popped: [string, string] | null;
      try {
        popped = await blocking.blpop(this.#keys.requests, 1);
      } catch (error) {
        if (!this.#stopping) this.#logger?.warn({ err: error }, 'resource request read failed');
        if (!this.#stopping) await new Promise((resolve) => setTimeout(resolve, 200));
        continue;
      }
      if (!popped) continue;
      const request = parseResourceCallRequest(popped[1]);
      if (!request) {
        this.#logger?.warn('malformed resource call request dropped');
        continue;
      }
      const handled = this.#handle(request).finally(() => this.#inFlight.delete(handled));
      this.#inFlight.add(handled);
    }
  }

  async #handle(request: ResourceCallRequest): Promise<void> {
    // The caller stopped waiting; running the call now could only surprise it.
    if (Date.now() > request.deadline) return;
    const reply = await this.#call(request);
    const replyKey = resourceReplyKey(this.#prefix, request.id);
    try {
      await this.#redis
        .multi()
        .lpush(replyKey, JSON.stringify(reply))
        .pexpire(replyKey, this.#timing.callTimeoutMs)
        .exec();
    } catch (error) {
      this.#logger?.warn({ err: error, requestId: request.id }, 'resource reply not written');
    }
  }

  async #call(request: ResourceCallRequest): Promise<ResourceCallReply> {
    const found = this.#registry.lookup(request.entryId);
    if (!found) {
      const gone = new ResourceOwnerGoneError(
        { key: request.key, ownerRunId: request.ownerRunId, ownerWorkerId: this.#registry.workerId },
        'instance-released',
      );
      return { ok: false, error: serializeError(gone) };
    }
    try {
      const instance = found.instance as Record<string, unknown>;
      const method = instance[request.method];
      if (typeof method !== 'function') {
        throw new TypeError(
          `Resource "${request.key}" has no method "${request.method}"; only async methods can be called across workers.`,
        );
      }
      const value: unknown = await method.apply(instance, decodeResourceCallArgs(request));
      const text = JSON.stringify(value);
      return text === undefined ? { ok: true } : { ok: true, value: JSON.parse(text) };
    } catch (error) {
      return { ok: false, error: serializeError(error) };
    }
  }
}

async function untilSettledOrTimeout(promises: Promise<void>[], timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  await Promise.race([Promise.allSettled(promises), timeout]);
  clearTimeout(timer);
}
