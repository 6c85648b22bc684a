// Types of `storage-floor.mjs` (its only declaration of them), for the test that checks what the floor sends.
import type { Redis } from 'ioredis';

export interface FloorGroup {
  side: 'client' | 'worker';
  /** Each command as Redis ran it inside our script: name first, then its arguments. */
  commands: string[][];
}

export interface FloorTemplate {
  prefix: string;
  /** The captured run's id (a tree's root), then its conversation's when it has one. */
  ids: string[];
  groups: FloorGroup[];
}

export type FloorVariant = 'as-stored' | 'no-events' | 'no-gate-index' | 'one-write' | 'lean';

export const FLOOR_SHAPES: string[];
export const FLOOR_VARIANTS: FloorVariant[];
export function captureFloorTemplate(
  shape: string,
  url: string,
  options?: { prefix?: string; quietMs?: number; timeoutMs?: number },
): Promise<FloorTemplate>;
export function floorVariant(template: FloorTemplate, variant: string): FloorTemplate;
export function floorIds(template: FloorTemplate, rootId: string, conversationId?: string): string[];
export function floorWriter(
  template: FloorTemplate,
  side: FloorGroup['side'],
  prefix: string,
): (ids: string[]) => string[][];
export function sendCalls(redis: Redis, calls: string[][]): Promise<void>;
export function coalesced(redis: Redis): Redis;
