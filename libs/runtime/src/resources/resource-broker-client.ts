/**
 * The caller side of cross-worker resources: sends one method call to the owner worker's
 * request list and waits on the call's own reply list. While it waits it checks the owner's
 * heartbeat, so a dead owner fails the call with {@link ResourceOwnerGoneError} within about a
 * heartbeat TTL instead of running into the call timeout.
 */

import { randomUUID } from 'node:crypto';
import { SpanKind } from '@opentelemetry/api';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { AbortError } from '../errors/run-errors.js';
import { deserializeError } from '../errors/serialize-error.js';
import { resourceBrokerKeys, resourceReplyKey } from '../keys.js';
import { observeResourceCall } from '../shared/observation-channels.js';
import { inSpan } from '../shared/tracing.js';
import { BlockingConnectionPool } from './blocking-connection-pool.js';
import {
  type ResolvedBrokerTiming,
  type ResourceBrokerTiming,
  resolveBrokerTiming,
} from './resource-broker.js';
import { encodeResourceCallArgs, type ResourceCallReply, type ResourceCallRequest } from './resource-call.js';
import type { ResourceDescriptor } from './resource-descriptor.js';
import { ResourceCallTimeoutError, ResourceOwnerGoneError } from './resource-errors.js';

/** Options of a {@link ResourceBrokerClient}. */
export interface ResourceBrokerClientOptions {
  /** Commands; duplicates are opened for the blocking reply reads. */
  redis: Redis;
  prefix: string;
  timing?: ResourceBrokerTiming;
  /** Where the reply connections report outages. @default none */
  logger?: Logger;
}

/** What one call targets: the owner's registry entry and, for messages, the descriptor. */
export interface ResourceCallTarget {
  entryId: string;
  descriptor: ResourceDescriptor;
}

/** Calls methods of resources owned by other workers. */
export class ResourceBrokerClient {
  readonly #redis: Redis;
  readonly #prefix: string;
  readonly #timing: ResolvedBrokerTiming;
  readonly #pool: BlockingConnectionPool;

  constructor(options: ResourceBrokerClientOptions) {
    this.#redis = options.redis;
    this.#prefix = options.prefix;
    this.#timing = resolveBrokerTiming(options.timing);
    this.#pool = new BlockingConnectionPool(options.redis, 4, options.logger);
  }

  /**
   * Calls `method(...args)` on the owner's instance and returns its JSON result.
   * @throws ResourceOwnerGoneError when the owner worker has no heartbeat or no longer holds the instance
   * @throws ResourceCallTimeoutError when a live owner does not answer within `callTimeoutMs`
   * @throws AbortError when `signal` aborts while waiting
   * @throws the method's own error, rebuilt with its `name`, message, data and cause
   */
  call(target: ResourceCallTarget, method: string, args: unknown[], signal?: AbortSignal): Promise<unknown> {
    const startedAt = performance.now();
    const attributes = {
      'rpc.system': 'flotilla-broker',
      'rpc.method': method,
      'flotilla.resource.key': target.descriptor.key,
    };
    return inSpan(
      `flotilla.resource ${method}`,
      attributes,
      async () => {
        let ok = false;
        try {
          const value = await this.#call(target, method, args, signal);
          ok = true;
          return value;
        } finally {
          observeResourceCall({ method, durationMs: performance.now() - startedAt, ok });
        }
      },
      { kind: SpanKind.CLIENT },
    );
  }

  async #call(
    target: ResourceCallTarget,
    method: string,
    args: unknown[],
    signal?: AbortSignal,
  ): Promise<unknown> {
    const { descriptor } = target;
    const keys = resourceBrokerKeys(this.#prefix, descriptor.ownerWorkerId);
    await this.#assertAlive(keys.heartbeat, descriptor);
    const request: ResourceCallRequest = {
      id: randomUUID(),
      entryId: target.entryId,
      key: descriptor.key,
      ownerRunId: descriptor.ownerRunId,
      method,
      ...encodeResourceCallArgs(args),
      deadline: Date.now() + this.#timing.callTimeoutMs,
    };
    await this.#redis
      .multi()
      .rpush(keys.requests, JSON.stringify(request))
      // A dead owner's request list must not stay forever; a live owner drains it.
      .pexpire(keys.requests, this.#timing.callTimeoutMs + this.#timing.heartbeatTtlMs)
      .exec();
    const reply = await this.#awaitReply(request, keys.heartbeat, descriptor, signal);
    if (!reply.ok) throw deserializeError(reply.error);
    return reply.value;
  }

  /** Closes the reply connections. */
  async close(): Promise<void> {
    await this.#pool.close();
  }

  async #awaitReply(
    request: ResourceCallRequest,
    heartbeatKey: string,
    descriptor: ResourceDescriptor,
    signal: AbortSignal | undefined,
  ): Promise<ResourceCallReply> {
    const replyKey = resourceReplyKey(this.#prefix, request.id);
    // Wait in slices no longer than a heartbeat TTL, checking liveness between them.
    const sliceMs = Math.max(100, Math.min(1000, this.#timing.heartbeatTtlMs));
    for (;;) {
      if (signal?.aborted) throw new AbortError(`resource call ${descriptor.key}.${request.method} aborted`);
      const remaining = request.deadline - Date.now();
      if (remaining <= 0)
        throw new ResourceCallTimeoutError(descriptor.key, request.method, this.#timing.callTimeoutMs);
      const seconds = Math.min(sliceMs, remaining) / 1000;
      const popped = await this.#pool.with((connection) => connection.blpop(replyKey, seconds));
      if (popped) return JSON.parse(popped[1]) as ResourceCallReply;
      await this.#assertAlive(heartbeatKey, descriptor);
    }
  }

  async #assertAlive(heartbeatKey: string, descriptor: ResourceDescriptor): Promise<void> {
    if ((await this.#redis.exists(heartbeatKey)) === 0)
      throw new ResourceOwnerGoneError(descriptor, 'worker-gone');
  }
}
