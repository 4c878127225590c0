/**
 * The `toolsContext` of `ai` 7 that gives every tool of `tools` the same context: `ai` 7 hands
 * each tool only its own entry, so the conversation's identity must be under every tool's
 * name. `ai` 6 has no `toolsContext`; pass the context as `experimental_context` there.
 *
 * @example
 * ```ts
 * const result = await generateText({ model, prompt, tools, toolsContext: aisdkToolsContext(tools, { chatId }) });
 * ```
 * @param tools - the tools given to `generateText` / `streamText`
 * @param context - the app's context of the call, such as `{ chatId }`
 * @returns `{ [toolName]: context }` for every tool
 * @public
 */
export function aisdkToolsContext<C>(
  tools: Readonly<Record<string, unknown>>,
  context: C,
): Record<string, C> {
  const entries: [string, C][] = Object.keys(tools).map((name) => [name, context]);
  return Object.fromEntries(entries);
}
