/**
 * What the runtime reports for metrics, on `node:diagnostics_channel`: the runtime depends on
 * no metrics library, the worker app subscribes and counts (apps/worker/src/fleet-metrics.ts).
 * A channel without subscribers costs one `hasSubscribers` check.
 */
import { channel } from 'node:diagnostics_channel';

/** One live model call (replayed turns are not calls). */
export interface ModelCallObservation {
  agentId: string;
  provider: string;
  model: string;
  durationMs: number;
  ok: boolean;
  promptTokens: number;
  completionTokens: number;
}

/** One fleet memo read: `hit` when the value was stored, `miss` when this caller waited for or computed it. */
export interface MemoObservation {
  outcome: 'hit' | 'miss';
}

/** One call through the resource broker to another worker's resource. */
export interface ResourceCallObservation {
  method: string;
  durationMs: number;
  ok: boolean;
}

/** A run parked at the waiting gate (`gate/waiting-for.ts`): it gave its worker slot back to wait for `kind`. */
export interface GateParkObservation {
  agentId: string;
  kind: string;
}

/** The channel names, for subscribers (`diagnostics_channel.subscribe(name, ...)`). */
export const ObservationChannel = {
  modelCall: 'flotilla:model-call',
  memo: 'flotilla:memo',
  resourceCall: 'flotilla:resource-call',
  gatePark: 'flotilla:gate-park',
} as const;

const modelCalls = channel(ObservationChannel.modelCall);
const memoReads = channel(ObservationChannel.memo);
const resourceCalls = channel(ObservationChannel.resourceCall);
const gateParks = channel(ObservationChannel.gatePark);

export function observeModelCall(observation: ModelCallObservation): void {
  if (modelCalls.hasSubscribers) modelCalls.publish(observation);
}

export function observeMemo(observation: MemoObservation): void {
  if (memoReads.hasSubscribers) memoReads.publish(observation);
}

export function observeResourceCall(observation: ResourceCallObservation): void {
  if (resourceCalls.hasSubscribers) resourceCalls.publish(observation);
}

export function observeGatePark(observation: GateParkObservation): void {
  if (gateParks.hasSubscribers) gateParks.publish(observation);
}
