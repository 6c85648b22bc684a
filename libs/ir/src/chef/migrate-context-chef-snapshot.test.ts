import { describe, expect, it } from 'vitest';
import { PNG } from '../testing/sample-media.js';
import { toolCall } from '../testing/tool-call.js';
import { validationRejection } from '../testing/validation-rejection.js';
import { CHEF_SNAPSHOT_SCHEMA_VERSION, parseChefSnapshot } from './chef-snapshot.js';
import { ContextChef } from './context-chef.js';

/**
 * A snapshot as the public ContextChef documents it (`chef.snapshot()`): `systemPrompt`,
 * `history`, dynamic state and module state, `createdAt`, and no `schemaVersion`. Attachments
 * keep whatever their input adapter stored: a data URL typed `image/*`, raw base64, a URL, a
 * provider file id.
 */
function contextChefSnapshot() {
  return {
    systemPrompt: [{ role: 'system', content: 'You are a support agent.' }],
    history: [
      {
        role: 'user',
        content: 'What is on these?',
        attachments: [
          { mediaType: 'image/*', data: `data:image/png;base64,${PNG}` },
          { mediaType: 'image/*', data: 'https://example.com/cat.jpg' },
          { mediaType: 'application/pdf', data: 'JVBERi0xLjQ=', filename: 'a.pdf' },
          { mediaType: 'image/*', data: 'file-AbC123' },
        ],
      },
      { role: 'assistant', content: '', tool_calls: [toolCall('c1', 'lookup', '{"q":"x"}')] },
      { role: 'tool', content: 'found', tool_call_id: 'c1' },
      {
        role: 'assistant',
        content: 'Here you go.',
        thinking: { thinking: 'easy', signature: 'sig' },
        _anthropic_compaction: 'earlier: greetings',
        pinned: true,
      },
    ],
    dynamicState: [],
    dynamicStatePlacement: 'system',
    dynamicStateXml: '',
    modules: {
      janitor: { externalTokenUsage: null, suppressNextCompression: false, consecutiveFailures: 0 },
      memory: null,
      pruner: { flatTools: [], namespaces: [], lazyToolkits: [] },
    },
    label: 'before-deploy',
    createdAt: 1_767_225_600_000,
  };
}

function rejection(snapshot: unknown) {
  return validationRejection(() => new ContextChef().restore(snapshot));
}

describe('restoring a snapshot saved by the public ContextChef', () => {
  it('imports its system prompt and history, through JSON as a store would hold it', () => {
    const stored = JSON.parse(JSON.stringify(contextChefSnapshot()));
    const chef = new ContextChef().restore(stored);
    expect(chef.getSystemPrompt()).toEqual([{ role: 'system', content: 'You are a support agent.' }]);
    expect(chef.getHistory().slice(1)).toEqual(contextChefSnapshot().history.slice(1));
  });

  it('makes every attachment explicit: data URLs split, URLs typed from the extension, file ids recognised', () => {
    const [user] = new ContextChef().restore(contextChefSnapshot()).getHistory();
    expect(user?.attachments).toEqual([
      { mediaType: 'image/png', data: PNG, source: 'base64' },
      { mediaType: 'image/jpeg', data: 'https://example.com/cat.jpg', source: 'url' },
      { mediaType: 'application/pdf', data: 'JVBERi0xLjQ=', source: 'base64', filename: 'a.pdf' },
      { mediaType: 'image/*', data: 'file-AbC123', source: 'file-id' },
    ]);
  });

  it('compiles the imported conversation for a provider that needs exact media types', async () => {
    const chef = ContextChef.fromSnapshot(contextChefSnapshot());
    const payload = await chef.compile({ target: 'anthropic' });
    expect(payload.system).toEqual([{ type: 'text', text: 'You are a support agent.' }]);
    expect(payload.messages[0]?.content).toContainEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: PNG },
    });
    expect(payload.messages.at(-1)?.content).toContainEqual({
      type: 'compaction',
      content: 'earlier: greetings',
    });
  });

  it('is written back in this package’s format on the next snapshot', () => {
    const snapshot = ContextChef.fromSnapshot(contextChefSnapshot()).snapshot();
    expect(snapshot.schemaVersion).toBe(CHEF_SNAPSHOT_SCHEMA_VERSION);
    expect(Object.keys(snapshot).sort()).toEqual(['history', 'schemaVersion', 'system']);
    expect(parseChefSnapshot(snapshot)).toEqual(snapshot);
  });

  it('does not change the snapshot it was given', () => {
    const snapshot = contextChefSnapshot();
    new ContextChef().restore(snapshot);
    expect(snapshot).toEqual(contextChefSnapshot());
  });

  describe('when the snapshot is not one it can read', () => {
    it('names a missing schemaVersion when the object is neither format', () => {
      const error = rejection({ system: [], history: [] });
      expect(error.path).toBe('schemaVersion');
      expect(error.message).toContain('systemPrompt');
    });

    it('names the place in the ContextChef snapshot that is not valid IR', () => {
      expect(rejection({ ...contextChefSnapshot(), systemPrompt: 'Be brief.' }).path).toBe('systemPrompt');
      expect(rejection({ ...contextChefSnapshot(), history: undefined }).path).toBe('history');
      const noContent = contextChefSnapshot();
      noContent.systemPrompt = [{ role: 'system' } as never];
      expect(rejection(noContent).path).toBe('systemPrompt[0].content');
      const fileSource = contextChefSnapshot();
      // ContextChef stores an Anthropic file-source image without data.
      fileSource.history[0] = {
        role: 'user',
        content: 'x',
        attachments: [{ mediaType: 'image/*' } as never],
      };
      expect(rejection(fileSource).path).toBe('history[0].attachments[0].data');
    });
  });
});
