import type { AnyTool } from '@plankit/core';

/**
 * Whether a tool is strict when an adapter's `strict` option is not given: the tool's own
 * `strict` trait (`defineTool({ traits: { strict: true } })`), `false` when it declares none.
 * plankit's planning tools declare it. Every adapter applies this one rule.
 *
 * @deprecated Read `tool.traits.strict` instead; this alias goes in the next minor release.
 * @public
 */
export function strictByDefault(tool: AnyTool): boolean {
  return tool.traits?.strict === true;
}
