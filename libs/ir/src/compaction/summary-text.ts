/**
 * Cleans what a summariser returned: drops `<analysis>…</analysis>` scratch blocks, keeps only
 * the inside of a `<summary>…</summary>` block when there is one, collapses runs of blank
 * lines and trims. The model is asked to think in `<analysis>` first; that text must not reach
 * the continued conversation.
 */
export function cleanSummaryText(raw: string): string {
  const withoutAnalysis = raw.replace(/<analysis>[\s\S]*?<\/analysis>/gi, '');
  const summary = /<summary>([\s\S]*?)<\/summary>/i.exec(withoutAnalysis);
  const body = summary ? (summary[1] ?? '') : withoutAnalysis;
  return body.replace(/\n{3,}/g, '\n\n').trim();
}

/**
 * The user-message text that stands in for the summarised part of a conversation. It is a
 * user message (not a system one) because Anthropic and Gemini require the first non-system
 * message to come from the user.
 */
export function continuationText(summary: string): string {
  return [
    'This conversation continues an earlier session. Its older part was summarised to save space:',
    '',
    '<conversation_summary>',
    summary,
    '</conversation_summary>',
    '',
    'Carry on from where the session left off. Do not mention or acknowledge this summary.',
  ].join('\n');
}
