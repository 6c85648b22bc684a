/** Token counts of one model call, or totals of a run or conversation. */
export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Finite numbers only, e.g. `reasoningTokens`, `cacheReadTokens`, `cacheWriteTokens`. */
  details?: Record<string, number>;
}

/** Why a model stopped: `unified` for code, `raw` as the provider said it. */
export interface FinishReason {
  unified: 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | 'unknown';
  raw?: string;
}

export const emptyUsage = (): TokenUsage => ({ promptTokens: 0, completionTokens: 0, totalTokens: 0 });

/** Adds two usages, detail by detail. */
export function addUsage(a: TokenUsage, b: TokenUsage): TokenUsage {
  const sum: TokenUsage = {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  if (a.details || b.details) {
    const details: Record<string, number> = { ...a.details };
    for (const [key, value] of Object.entries(b.details ?? {})) details[key] = (details[key] ?? 0) + value;
    sum.details = details;
  }
  return sum;
}
