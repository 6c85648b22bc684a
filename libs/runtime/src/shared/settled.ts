/**
 * One promise already resolved, shared: what a function that usually has nothing to wait for
 * returns then, instead of being `async` (every promise created pays the async-context hooks
 * Node installs for `AsyncLocalStorage`, and the worker makes hundreds per run).
 */
export const SETTLED: Promise<void> = Promise.resolve();
