import type { ApiClient } from './api-client.ts';
import { ApiError } from './api-error.ts';
import { h } from './dom.ts';

/** What every view gets: the API (with the token) and a signal that aborts when the view is left. */
export interface ViewContext {
  api: ApiClient;
  signal: AbortSignal;
}

/** Calls `refresh` now and then every `everyMs` until the view is left; a failure shows in `onError`. */
export function keepFresh(
  signal: AbortSignal,
  everyMs: number,
  refresh: () => Promise<unknown>,
  onError: (error: unknown) => void,
): void {
  const tick = async () => {
    if (signal.aborted) return;
    let again = true;
    try {
      again = (await refresh()) !== false;
    } catch (error) {
      if (!signal.aborted) onError(error);
    }
    if (again && !signal.aborted) setTimeout(() => void tick(), everyMs);
  };
  void tick();
}

/** An error as an alert: its typed name and its message, as text. */
export function errorAlert(error: unknown): HTMLElement {
  const name = error instanceof ApiError ? error.errorName : error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  return h(
    'div',
    { class: 'alert', role: 'alert' },
    h('strong', { class: 'error-name' }, name),
    ': ',
    message,
  );
}

/** A titled section with an accessible name. */
export function section(
  title: string,
  id: string,
  ...children: (Node | string | false | undefined)[]
): HTMLElement {
  return h('section', { 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}
