import { COMPILE_TARGETS, type CompiledConversation, type Conversation } from '../api-types.ts';
import { diffVersions } from '../diff-versions.ts';
import { h, jsonBlock, replaceChildren } from '../dom.ts';
import { formatCount } from '../format.ts';
import { errorAlert, section, type ViewContext } from '../view.ts';
import { isCompactedBase, messageView } from './message-view.ts';

/**
 * A conversation: its messages by role at a chosen version, the diff against another version,
 * compacted bases marked, and the conversation compiled for a chosen target with its warnings.
 */
export function conversationView(context: ViewContext, conversationId: string): HTMLElement {
  const { api } = context;
  const path = `/conversations/${encodeURIComponent(conversationId)}`;
  const problem = h('div');
  const summary = h('dl', { class: 'summary' });
  const versionSelect = h('select', { id: 'version' });
  const compareSelect = h('select', { id: 'compare' });
  const messages = h('div', { class: 'messages', 'aria-live': 'polite' });
  const diff = h('div', { class: 'diff' });
  const targetSelect = h(
    'select',
    { id: 'target' },
    ...COMPILE_TARGETS.map((target) => h('option', { value: target }, target)),
  );
  const compiled = h('div', { class: 'compiled' });
  const cache = new Map<number, Promise<Conversation>>();
  const load = (version: number) => {
    let loaded = cache.get(version);
    if (!loaded) {
      loaded = api.get<Conversation>(path, { version });
      cache.set(version, loaded);
      loaded.catch(() => cache.delete(version));
    }
    return loaded;
  };

  const show = async () => {
    const version = Number(versionSelect.value);
    const conversation = await load(version);
    replaceChildren(
      summary,
      h('dt', {}, 'Version'),
      h('dd', {}, `${conversation.header.version}`),
      h('dt', {}, 'Messages'),
      h('dd', {}, formatCount(conversation.header.messageCount)),
      h('dt', {}, 'Model'),
      h(
        'dd',
        {},
        conversation.header.model
          ? `${conversation.header.model.provider}/${conversation.header.model.id}`
          : '—',
      ),
      h('dt', {}, 'Tokens'),
      h('dd', {}, formatCount(conversation.header.usage?.totalTokens)),
      h('dt', {}, 'Updated'),
      h('dd', {}, conversation.header.updatedAt),
    );
    const compacted = conversation.messages.filter(isCompactedBase).length;
    replaceChildren(
      messages,
      ...conversation.header.system.map((message, index) =>
        h(
          'div',
          { class: 'system' },
          h('h3', {}, `System prompt ${index + 1}`),
          h('p', { class: 'text' }, String(message.content)),
        ),
      ),
      compacted > 0
        ? h(
            'p',
            { class: 'help' },
            `${compacted} compacted base${compacted === 1 ? '' : 's'} (marked): earlier turns summarised.`,
          )
        : '',
      ...conversation.messages.map((message, index) => messageView(message, index)),
    );
    const other = compareSelect.value === '' ? undefined : Number(compareSelect.value);
    if (other === undefined || other === version) {
      replaceChildren(diff, h('p', { class: 'help' }, 'Choose a version to compare with.'));
      return;
    }
    const [older, newer] =
      other < version ? [await load(other), conversation] : [conversation, await load(other)];
    const change = diffVersions(older, newer);
    replaceChildren(
      diff,
      h(
        'p',
        { role: 'status' },
        `From version ${older.header.version} to ${newer.header.version}: ${change.added.length} added, ${change.removed.length} removed, ${change.common} unchanged${change.systemChanged ? ', system prompt changed' : ''}.`,
      ),
      ...change.removed.map((message, index) => messageView(message, change.common + index, 'removed')),
      ...change.added.map((message, index) => messageView(message, change.common + index, 'added')),
    );
  };
  const showing = () =>
    show()
      .then(() => replaceChildren(problem))
      .catch((error: unknown) => replaceChildren(problem, errorAlert(error)));

  const compileForm = h(
    'form',
    { class: 'inline-form', 'aria-label': 'Compile for a target' },
    h('label', { for: 'target' }, 'Target'),
    targetSelect,
    h('button', { type: 'submit' }, 'Compile'),
  );
  compileForm.addEventListener('submit', (event) => {
    event.preventDefault();
    replaceChildren(compiled, 'Compiling…');
    api
      .get<CompiledConversation>(`${path}/compiled`, {
        target: targetSelect.value,
        version: versionSelect.value,
      })
      .then((result) =>
        replaceChildren(
          compiled,
          h('h3', {}, `Version ${result.version} for ${result.target}`),
          result.warnings.length === 0
            ? h('p', { class: 'no-warnings' }, 'No compile warnings.')
            : h(
                'ul',
                { class: 'warnings', 'aria-label': 'Compile warnings' },
                ...result.warnings.map((warning) =>
                  h(
                    'li',
                    {},
                    h('code', {}, warning.code),
                    `: ${warning.message}`,
                    warning.messageIndex === undefined ? '' : ` (message ${warning.messageIndex + 1})`,
                  ),
                ),
              ),
          jsonBlock(result.payload, `Payload for ${result.target}`),
        ),
      )
      .catch((error: unknown) => replaceChildren(compiled, errorAlert(error)));
  });

  versionSelect.addEventListener('change', () => void showing());
  compareSelect.addEventListener('change', () => void showing());
  api
    .get<Conversation>(path)
    .then((latest) => {
      cache.set(latest.header.version, Promise.resolve(latest));
      const versions = Array.from(
        { length: latest.header.version },
        (_, index) => latest.header.version - index,
      );
      replaceChildren(
        versionSelect,
        ...versions.map((version) =>
          h(
            'option',
            { value: version },
            `version ${version}${version === latest.header.version ? ' (latest)' : ''}`,
          ),
        ),
      );
      replaceChildren(
        compareSelect,
        h('option', { value: '' }, 'none'),
        ...versions.map((version) => h('option', { value: version }, `version ${version}`)),
      );
      return showing();
    })
    .catch((error: unknown) => replaceChildren(problem, errorAlert(error)));

  return h(
    'div',
    { class: 'view' },
    h('h1', {}, 'Conversation ', h('span', { class: 'mono' }, conversationId)),
    problem,
    h(
      'form',
      { class: 'inline-form', 'aria-label': 'Versions' },
      h('label', { for: 'version' }, 'Version'),
      versionSelect,
      h('label', { for: 'compare' }, 'Compare with'),
      compareSelect,
    ),
    summary,
    section('Diff', 'diff-title', diff),
    section('Messages', 'messages-title', messages),
    section('Compiled', 'compiled-title', compileForm, compiled),
  );
}
