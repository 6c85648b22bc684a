/**
 * A stand-in for a resource owned by another worker: every property read returns an async
 * function that forwards the call, with JSON arguments, through the broker to the owner's
 * instance and resolves with its JSON result. Only async method calls work: fields, getters,
 * callbacks and non-JSON arguments do not cross workers. An omitted or `undefined` argument
 * reaches the method as `undefined` (never `null`); nested values follow JSON rules.
 */
import type { ResourceBrokerClient, ResourceCallTarget } from './resource-broker-client.js';

/** Marks a broker proxy; {@link isResourceProxy} reads it. */
const PROXY_TARGET = Symbol.for('@flotilla/runtime/resource-proxy/v1');

/**
 * Creates the proxy of `target`; each call aborts with `callerSignal()`, the signal of the agent
 * that makes it (read at call time: one proxy serves every agent of the run).
 */
export function createResourceProxy<T>(
  target: ResourceCallTarget,
  client: ResourceBrokerClient,
  callerSignal: () => AbortSignal | undefined,
): T {
  const methods = new Map<string, (...args: unknown[]) => Promise<unknown>>();
  const handler: ProxyHandler<object> = {
    get(_object, property) {
      if (property === PROXY_TARGET) return target;
      // Not a thenable (so `await proxy` gives the proxy), not a JSON value.
      if (typeof property === 'symbol' || property === 'then' || property === 'toJSON') return undefined;
      let method = methods.get(property);
      if (!method) {
        method = (...args: unknown[]) => client.call(target, property, args, callerSignal());
        methods.set(property, method);
      }
      return method;
    },
    set() {
      throw new TypeError(
        `Resource "${target.descriptor.key}" lives on another worker; its fields cannot be set.`,
      );
    },
  };
  return new Proxy({}, handler) as T;
}

/** Whether `value` is a broker proxy (the resource lives on another worker). */
export function isResourceProxy(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Reflect.get(value, PROXY_TARGET) !== undefined;
}
