import type { Attachment, Message } from '../api-types.ts';
import { h, jsonBlock } from '../dom.ts';

/** Image types shown inline (as `data:` URLs the CSP allows); others are described. */
const INLINE_IMAGES = /^image\/(png|jpeg|gif|webp)$/;

/** Whether a message is the summary a compaction put in place of earlier turns. */
export function isCompactedBase(message: Message): boolean {
  return message._compaction_summary === true || typeof message._anthropic_compaction === 'string';
}

/**
 * One message by role: its text, thinking (collapsed), tool calls with their arguments, the
 * tool result it carries, and attachments. All text nodes: nothing a model wrote becomes markup.
 */
export function messageView(message: Message, index: number, mark?: 'added' | 'removed'): HTMLElement {
  const role = typeof message.role === 'string' ? message.role : 'unknown';
  const heading = [
    role,
    message.name ? ` (${message.name})` : '',
    message.tool_call_id ? ` · result of ${message.tool_call_id}` : '',
  ].join('');
  return h(
    'article',
    {
      class: `message role-${/^[a-z]+$/.test(role) ? role : 'unknown'}${mark ? ` diff-${mark}` : ''}`,
      'aria-label': `Message ${index + 1}: ${role}`,
      'data-index': index,
    },
    h(
      'h3',
      {},
      mark === 'added' ? h('span', { class: 'diff-tag' }, '+ added ') : '',
      mark === 'removed' ? h('span', { class: 'diff-tag' }, '− removed ') : '',
      `#${index + 1} ${heading}`,
      isCompactedBase(message)
        ? h('span', { class: 'compacted' }, ' compacted base: a summary of earlier turns')
        : '',
    ),
    message.thinking?.thinking
      ? h(
          'details',
          { class: 'thinking' },
          h('summary', {}, 'Thinking'),
          h('p', { class: 'text' }, message.thinking.thinking),
        )
      : '',
    message.redacted_thinking
      ? h('p', { class: 'help' }, 'Redacted thinking (encrypted by the provider).')
      : '',
    message.content !== '' ? h('p', { class: 'text' }, String(message.content)) : '',
    ...(message.tool_calls ?? []).map((call) =>
      h(
        'div',
        { class: 'tool-call' },
        h('strong', {}, `Tool call ${call.function?.name ?? ''}`),
        ` (${call.id})`,
        jsonBlock(
          prettyArguments(call.function?.arguments),
          `Arguments of ${call.function?.name ?? 'the tool call'}`,
        ),
      ),
    ),
    ...(message.attachments ?? []).map(attachmentView),
  );
}

function attachmentView(attachment: Attachment): HTMLElement {
  const label = `${attachment.mediaType}${attachment.filename ? ` ${attachment.filename}` : ''}`;
  if (
    (attachment.source ?? 'base64') === 'base64' &&
    INLINE_IMAGES.test(attachment.mediaType) &&
    !attachment.data.startsWith('http')
  )
    return h(
      'figure',
      { class: 'attachment' },
      h('img', {
        src: `data:${attachment.mediaType};base64,${attachment.data.replace(/^data:[^,]*,/, '')}`,
        alt: `Attached image ${label}`,
      }),
      h('figcaption', {}, label),
    );
  return h('p', { class: 'attachment' }, `Attachment: ${label} (${attachment.source ?? 'inline'})`);
}

/** Tool arguments are JSON text: shown parsed and indented when they parse, as given otherwise. */
function prettyArguments(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return text ?? '';
  }
}
