import { checkOptionKeys } from '@plankit/core/internal-unstable';
import { AdapterError } from '../adapter-error.ts';
import type { McpPromptResult, McpServerLike } from './mcp-server-like.ts';

/**
 * A prompt section as `registerMcpPrompt` needs it: `PlanningToolsSection` from
 * `@plankit/prompt` (or any `PromptSection` that renders without params) fits as is.
 *
 * @public
 */
export interface McpPromptSection {
  /** The section's key; the prompt's name by default. */
  readonly key: string;
  /** The section's title; the prompt's title. */
  readonly title: string;
  /** Renders the section's markdown. */
  render(): string;
}

/** Options of `registerMcpPrompt` (`/mcp` and `/mcp-v2`). @public */
export interface McpPromptOptions {
  /** The prompt's name in `prompts/list`; the section's key by default. */
  readonly name?: string | undefined;
  /** The prompt's description; a line naming the section by default. */
  readonly description?: string | undefined;
}

const OPTION_KEYS = new Set(['name', 'description']);

function invalid(message: string, field: string): AdapterError {
  return new AdapterError('tools_invalid', `registerMcpPrompt: ${message}`, { field });
}

function checkArguments(server: unknown, section: unknown, options: unknown): void {
  if (typeof (server as McpServerLike | null)?.registerPrompt !== 'function')
    throw invalid('server must be an McpServer.', 'server');
  const candidate = section as McpPromptSection | null;
  if (
    typeof candidate?.render !== 'function' ||
    typeof candidate.key !== 'string' ||
    typeof candidate.title !== 'string'
  )
    throw invalid('section must be a prompt section (key, title, render).', 'section');
  if (typeof options !== 'object' || options === null)
    throw invalid('options must be an object.', 'options');
  // The unknown key is named bare as the error's field, as every other field here is.
  checkOptionKeys('', options, OPTION_KEYS, 'options.', (_where, field, rule) =>
    invalid(`${field} ${rule}.`, field.slice('options.'.length)),
  );
  const { name, description } = options as McpPromptOptions;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === ''))
    throw invalid('options.name must be a non-empty string.', 'name');
  if (description !== undefined && typeof description !== 'string')
    throw invalid('options.description must be a string.', 'description');
}

/**
 * Registers a prompt section as an MCP prompt without arguments: `prompts/get` answers one
 * user message holding the section's markdown, rendered afresh on each request. MCP prompts
 * have no system role; a client places the text where it wants.
 */
export function addMcpPrompt(
  server: McpServerLike,
  section: McpPromptSection,
  options: McpPromptOptions,
): unknown {
  checkArguments(server, section, options);
  // Render once now, so a section that cannot render fails here rather than on a client.
  section.render();
  const description = options.description ?? `The ${section.title} section of the system prompt.`;
  return server.registerPrompt(
    options.name ?? section.key,
    { title: section.title, description },
    (): McpPromptResult => ({
      description,
      messages: [{ role: 'user', content: { type: 'text', text: section.render() } }],
    }),
  );
}
