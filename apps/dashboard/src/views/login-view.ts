import { ApiClient } from '../api-client.ts';
import { h, replaceChildren } from '../dom.ts';
import { errorAlert } from '../view.ts';

/**
 * The login form: the API token, kept in memory by the {@link ApiClient} it makes (never stored,
 * never in a URL). An empty token is for a scheduler without tokens (loopback only).
 */
export function loginView(onSignedIn: (api: ApiClient) => void, onUnauthorized: () => void): HTMLElement {
  const token = h('input', {
    id: 'token',
    name: 'token',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'token-help',
  });
  const status = h('div', { 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'login', 'aria-labelledby': 'login-title' },
    h('h1', { id: 'login-title' }, 'Flotilla dashboard'),
    h('label', { for: 'token' }, 'API token'),
    token,
    h(
      'p',
      { id: 'token-help', class: 'help' },
      'The bearer token of the scheduler (FLOTILLA_API_TOKEN). Kept in this tab’s memory only: a reload asks again. Leave empty for a scheduler without a token.',
    ),
    h('button', { type: 'submit' }, 'Sign in'),
    status,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    // A refusal of this first request is shown here; later ones (a revoked token) sign out.
    let signedIn = false;
    const api = new ApiClient(token.value.trim(), () => {
      if (signedIn) onUnauthorized();
    });
    replaceChildren(status, 'Signing in…');
    api
      .get('/runs', { limit: 1 })
      .then(() => {
        signedIn = true;
        onSignedIn(api);
      })
      .catch((error: unknown) => replaceChildren(status, errorAlert(error)));
  });
  queueMicrotask(() => token.focus());
  return h('main', { id: 'main', class: 'login-page' }, form);
}
