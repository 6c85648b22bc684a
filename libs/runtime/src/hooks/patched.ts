/**
 * `patched(changeId)` and `deprecatePatch(changeId)`: changing an agent's durable calls without
 * breaking runs that are in flight (Temporal's patching API).
 *
 * The rules, for one generation of one agent invocation (`<callPath>/g<n>`):
 * - **Marker.** A `patched(id)` that answers `true` records a marker entry (kind `patch`) at
 *   `<callPath>/g<n>/patch:<id>`. The marker takes no numbered position (`nextPosition` is not
 *   called), so the positions of the calls after it are the same with and without the patch.
 * - **Recorded marker → `true`.** A replay that finds the marker answers `true`: the run took
 *   the new path before, and takes it again.
 * - **Fresh → `true`.** With no marker, the answer is `true` when the journal holds nothing past
 *   this point: no entry of this generation at a position not taken yet (nor of a later
 *   generation), and the same for each enclosing invocation of the run (an in-process parent).
 *   The steps an earlier execution suspended on (a child call, a wait: no entry until they end)
 *   count as entries here (`LoadedJournal.pendingSteps`), so a patch right before the call a run
 *   is suspended on still sees the run as recorded past it.
 *   The run is executing code it never executed before, so the new path is safe; the marker is
 *   recorded so every later replay answers `true` too.
 * - **Replaying past it → `false`.** With no marker and a recorded entry past this point, the run
 *   was recorded by code without the patch: the answer is `false` (take the old path) and
 *   nothing is recorded, so every later replay answers `false` again.
 * - **One answer per generation.** The first answer for an id holds for the rest of the
 *   generation (a second `patched(id)` in the same generation returns the same); a new
 *   generation (`reborn`) asks again.
 * - **When in doubt, `false`.** A position the replay cannot retake (e.g. a child agent called
 *   from inside a tool, which a replay does not re-run) counts as past this point.
 *
 * The marker write is tracked like a memory write: every later journal record of the run waits
 * for it (and fails if it failed), and the run cannot suspend before it is stored, so a journal
 * never holds an entry past a `true` without its marker.
 *
 * `deprecatePatch(id)` is the step after: once no run that could take the old path is left,
 * remove the old branch and keep `deprecatePatch(id)` where `patched(id)` was. It records
 * nothing and checks nothing; runs that recorded the marker and fresh runs replay through it.
 * Once those runs are gone too, delete the call.
 */
import type { AgentContext } from '../context/agent-context.js';
import { requireAgentContext } from '../context/context-store.js';
import type { JournalEntry } from '../context/journal-entry.js';
import { recordedPastThisPoint } from '../engine/journal-frontier.js';
import { currentToolScope } from '../engine/progress-scope.js';
import { InvalidPatchIdError, PatchInsideToolError } from '../errors/patch-errors.js';
import { ID_RULE, isValidId } from '../jobs/id-rule.js';

/**
 * Whether the calling agent takes the new path of change `changeId`: `true` for a run that
 * reaches this point fresh (recorded, so its replays say `true` too), `false` for a run whose
 * journal was recorded past this point by code without the patch. See the module comment for
 * the exact rules.
 *
 * ```ts
 * if (patched('summary-before-send')) await promptChat({ message: 'Summarize first' });
 * await callTool(sendTool, { … });
 * ```
 * @param changeId names the change: 1 to 200 ASCII letters, digits, `_`, `.` or `-`.
 * @throws InvalidPatchIdError when `changeId` breaks that rule
 * @throws PatchInsideToolError inside a tool handler (tool code is never replayed: change it freely)
 * @throws ContextNotFoundError outside an agent run
 */
export function patched(changeId: string): boolean {
  const context = patchContext('patched', changeId);
  const { draft } = context;
  const answered = draft.patches.get(changeId);
  if (answered !== undefined) return answered;
  const position = patchMarkerPosition(context.generationPath, changeId);
  const marked = context.run.journal.get(position)?.kind === 'patch';
  const answer = marked || !recordedPastThisPoint(context);
  draft.patches.set(changeId, answer);
  if (answer && !marked) recordMarker(context, position, changeId);
  return answer;
}

/**
 * Marks change `changeId` as deployed everywhere: the old branch is gone and the code always
 * takes the new path. Records and checks nothing, so runs that recorded `patched(changeId)`'s
 * marker replay through it as well as fresh runs. Deploy it only once no run that took the old
 * path can replay any more.
 * @throws InvalidPatchIdError when `changeId` breaks the id rule
 * @throws PatchInsideToolError inside a tool handler
 * @throws ContextNotFoundError outside an agent run
 */
export function deprecatePatch(changeId: string): void {
  patchContext('deprecatePatch', changeId);
}

/** The position of change `changeId`'s marker in a generation (never a numbered position). */
export function patchMarkerPosition(generationPath: string, changeId: string): string {
  return `${generationPath}/patch:${changeId}`;
}

function patchContext(apiName: string, changeId: string): AgentContext {
  const context = requireAgentContext(apiName);
  if (!isValidId(changeId)) throw new InvalidPatchIdError(apiName, changeId, ID_RULE);
  const tool = currentToolScope();
  if (tool !== undefined) throw new PatchInsideToolError(apiName, tool);
  return context;
}

function recordMarker(context: AgentContext, position: string, changeId: string): void {
  const { run } = context;
  // An abandoned execution must not record anything more.
  if (run.suspended) return;
  // In flight until stored: the run cannot suspend before it, and later records wait for it.
  const inFlight = run.steps.begin();
  const marker: JournalEntry = {
    kind: 'patch',
    fingerprint: `patch:${changeId}`,
    outcome: { ok: true, value: true },
    at: Date.now(),
  };
  run.trackWrite(run.record(position, marker).finally(() => run.steps.end(inFlight)));
}
