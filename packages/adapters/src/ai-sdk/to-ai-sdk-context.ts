/**
 * The `toolsContext` of `ai` 7 that gives every tool of `tools` the same context: `ai` 7 hands
 * each tool only its own entry, so the conversation's identity must be under every tool's
 * name. `ai` 6 has no `toolsContext`; pass the context as `experimental_context` there.
 *
 * @example
 * ```ts
 * const result = await generateText({ model, prompt, tools, toolsContext: toAISDKToolsContext(tools, { chatId }) });
 * ```
 * @param tools - the tools given to `generateText` / `streamText`
 * @param context - the app's context of the call, such as `{ chatId }`
 * @returns `{ [toolName]: context }` for every tool
 * @public
 */
export function toAISDKToolsContext<C>(
  tools: Readonly<Record<string, unknown>>,
  context: C,
): Record<string, C> {
  const entries: [string, C][] = Object.keys(tools).map((name) => [name, context]);
  return Object.fromEntries(entries);
}

/** The contexts `ai` 7 takes for one conversation: see {@link toAISDKContext}. @public */
export interface AISDKContexts<C> {
  /** Every tool's entry: the context each tool's resolver gets. */
  readonly toolsContext: Record<string, C>;
  /** The step context `planReminderStep` and `planFinished` read. */
  readonly runtimeContext: C;
}

/**
 * Both contexts `ai` 7 takes for one conversation, to spread into `generateText` /
 * `streamText`: `toolsContext` (every tool gets `context`) and `runtimeContext` (the step
 * helpers get it), so the tools and `planReminderStep` / `planFinished` always name the same
 * conversation. `ai` 6 takes `experimental_context: context` instead.
 *
 * @example
 * ```ts
 * const result = await generateText({ model, prompt, tools, ...toAISDKContext(tools, { chatId }), prepareStep });
 * ```
 * @param tools - the tools given to `generateText` / `streamText`
 * @param context - the app's context of the conversation, such as `{ chatId }`
 * @returns `{ toolsContext, runtimeContext }`
 * @public
 */
export function toAISDKContext<C>(
  tools: Readonly<Record<string, unknown>>,
  context: C,
): AISDKContexts<C> {
  return { toolsContext: toAISDKToolsContext(tools, context), runtimeContext: context };
}
