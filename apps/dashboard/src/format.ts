import { h } from './dom.ts';

/** `1.2 s`, `340 ms`, `3 min 5 s`; `—` when unknown. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** A local date and time with seconds; `—` when unknown. */
export function formatTime(epochMs: number | undefined): string {
  if (epochMs === undefined || !Number.isFinite(epochMs)) return '—';
  return new Date(epochMs).toLocaleString(undefined, { hour12: false });
}

/** How long a run took, or has been running (until `now`). */
export function runDuration(
  run: { startedAt?: number; endedAt?: number },
  now = Date.now(),
): number | undefined {
  if (run.startedAt === undefined) return undefined;
  return (run.endedAt ?? now) - run.startedAt;
}

/** A status as a coloured badge; the word is always shown, so colour is never the only cue. */
export function statusBadge(status: string): HTMLElement {
  return h('span', { class: `status status-${/^[a-z]+$/.test(status) ? status : 'unknown'}` }, status);
}

/** `1,234` */
export function formatCount(value: number | undefined): string {
  return typeof value === 'number' && Number.isFinite(value) ? value.toLocaleString('en-US') : '—';
}
