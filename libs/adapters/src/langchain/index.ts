/**
 * @flotilla/adapters/langchain — LangChain tools as Flotilla tools.
 *
 * ```ts
 * import { tool } from '@langchain/core/tools';
 * equipTool(fromLangChainTool(tool(search, { name: 'search', description: '…', schema })));
 * ```
 *
 * Results pass through unchanged, except content-block arrays with images, which reach the
 * model as images (`toolContent`).
 */
export {
  type FromLangChainToolOptions,
  fromLangChainTool,
  type LangChainToolLike,
} from './from-langchain-tool.js';
export { langChainResultToToolResult } from './langchain-content-to-parts.js';
export { LangChainToolError } from './langchain-tool-error.js';
