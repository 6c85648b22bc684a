/**
 * Which tool execution a `reportProgress` call comes from. A tool's calls take positions of
 * their own (`progress:<tool position>:<n>`), apart from the handler's: a replay serves a
 * finished tool from the journal without running it, so its calls must not shift the
 * positions of the handler's later calls (which would then look already emitted).
 */
import { frameSlot } from '../context/async-frame.js';

/** A slot of the process-wide async frame (`context/async-frame.ts`), not a storage of its own. */
const toolScope = frameSlot<string>('tool');

/** Runs a tool handler with `toolPosition` as the scope of its progress calls. */
export function runInToolScope<T>(toolPosition: string, fn: () => Promise<T>): Promise<T> {
  return toolScope.run(toolPosition, fn);
}

/** The last segment of the running tool's position (e.g. `tool:call_1:0`), or `undefined` in a handler. */
export function currentToolScope(): string | undefined {
  return toolScope.get()?.split('/').at(-1);
}
