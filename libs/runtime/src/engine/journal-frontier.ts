/**
 * The frontier of a replay: whether the journal holds entries past the point an agent has
 * reached in this execution. `patched()` answers `false` past it (the run was recorded by older
 * code), and `replayRun` tells a call the recorded run never made (a divergence) from the end of
 * what was recorded (the replay stops there).
 *
 * An entry is past the point when it lies in the agent's current generation at a position this
 * execution has not taken yet (`<key>:<n>` with `n` at or beyond the key's counter, or a segment
 * with no number such as the generation's `reborn`), or in a later generation — for the agent
 * and for each in-process agent enclosing it. Patch markers never count.
 *
 * The positions an earlier execution suspended at count like entries (`RunState.pendingSteps`):
 * a parent journals a child call only once the child ended, and a wait only once it is over, so
 * without them a run suspended on its first child call would look as if it never got there.
 */
import type { AgentContext } from '../context/agent-context.js';

/**
 * Whether the journal holds an entry (or a step an earlier execution suspended at) past the
 * point the calling agent (and each in-process agent enclosing it) has reached in this execution.
 */
export function recordedPastThisPoint(context: AgentContext): boolean {
  const levels: AgentContext[] = [];
  for (let level: AgentContext | undefined = context; level; level = level.parent) levels.push(level);
  const isPast = (position: string) => levels.some((level) => isPastLevel(level, position));
  for (const [position, entry] of context.run.journal)
    if (entry.kind !== 'patch' && isPast(position)) return true;
  for (const position of context.run.pendingSteps) if (isPast(position)) return true;
  return false;
}

/** A numbered position segment: `<key>:<sequence>` (`model:2`, `tool:call_1:0`, `agent:writer:1`). */
const NUMBERED_SEGMENT = /^(.+):(\d+)$/;
/** A generation segment below a callPath: `g<n>`. */
const GENERATION_SEGMENT = /^g(\d+)$/;

/** Whether `position` lies past the point `level` has reached (its own positions only). */
function isPastLevel(level: AgentContext, position: string): boolean {
  const callPathPrefix = `${level.callPath}/`;
  if (!position.startsWith(callPathPrefix)) return false;
  const [generationSegment = '', segment] = position.slice(callPathPrefix.length).split('/');
  const generation = GENERATION_SEGMENT.exec(generationSegment);
  if (!generation) return false;
  const recordedGeneration = Number(generation[1]);
  if (recordedGeneration !== level.generation) return recordedGeneration > level.generation;
  return segment === undefined ? false : !isTaken(level, segment);
}

/**
 * Whether this execution already took the position segment (or will not: a segment with no
 * number, such as the generation's `reborn`, ends the generation and is never taken before it).
 */
function isTaken(level: AgentContext, segment: string): boolean {
  const numbered = NUMBERED_SEGMENT.exec(segment);
  if (!numbered) return false;
  const key = numbered[1] ?? '';
  // A tool's reportProgress calls are counted per tool call (`progress:<tool segment>:<n>`): a
  // replay does not run the tool again, so they belong to the tool's own segment.
  if (key.startsWith('progress:')) return isTaken(level, key.slice('progress:'.length));
  return level.draft.hasTaken(key, Number(numbered[2]));
}
