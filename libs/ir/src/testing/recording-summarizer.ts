/**
 * Test support for the compaction suites (kept out of the package build): a summariser that
 * records every request and answers with a fixed text.
 */
import type { SummarizeRequest } from '../compaction/summarize-history.js';

/** `summarize` answers `answer`; `requests` lists what it was asked, in order. */
export function recordingSummarizer(answer = '<summary>earlier talk</summary>') {
  const requests: SummarizeRequest[] = [];
  const summarize = async (request: SummarizeRequest): Promise<string> => {
    requests.push(request);
    return answer;
  };
  return { requests, summarize };
}
