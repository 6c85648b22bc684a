import type { Message } from '@flotilla/ir';
import { contentPartsToIr } from '../tools/content-parts-to-ir.js';
import type { ContentPart } from '../tools/tool-content.js';
import { requireOpenDraft } from './require-draft.js';

/** Marks instruction messages in IR (a `_` field: targets never send it to a provider). */
export const INSTRUCTION_MARKER = '_instruction';

/**
 * Adds an instruction for this generation; each call becomes its own user message (text, or
 * parts with images), after the system messages, marked with `_instruction: true`.
 * @throws ContextNotFoundError outside an agent run; AfterPromptAgentError after the policy started
 */
export function equipInstruction(content: string | ContentPart[]): void {
  const context = requireOpenDraft('equipInstruction');
  const message: Message = { role: 'user', content: '', [INSTRUCTION_MARKER]: true };
  if (typeof content === 'string') message.content = content;
  else {
    const ir = contentPartsToIr(content);
    message.content = ir.content;
    if (ir.attachments.length > 0) message.attachments = ir.attachments;
  }
  context.draft.instructions.push(message);
}
