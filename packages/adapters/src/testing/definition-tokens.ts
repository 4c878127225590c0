import type { AnyTool } from '@plankit/core';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { toStrictJsonSchema } from '../host/strict-schema/to-strict-json-schema.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';

/** The JSON Schema a host sends for a tool. */
export type SchemaOf = (tool: AnyTool) => unknown;

/**
 * The schema a strict host sends (OpenAI Chat Completions and Responses, Anthropic, the AI SDK,
 * the OpenAI Agents SDK): the tool's schema rewritten for strict mode.
 */
export const strictSchemaOf: SchemaOf = (tool) => toStrictJsonSchema(toolJsonSchema(tool)).schema;

/**
 * o200k tokens of tool definitions as a request carries them: name, description and JSON Schema
 * of each tool, as one JSON array. The schema is the tool's own (what LangChain, MCP and a
 * non-strict tool send) unless `schemaOf` gives the one a host sends, such as
 * {@link strictSchemaOf}. The token-economy bench and the token budget test count alike.
 */
export const definitionTokens = (
  tools: readonly AnyTool[],
  schemaOf: SchemaOf = toolJsonSchema,
): number =>
  countTokens(
    JSON.stringify(
      tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: schemaOf(tool),
      })),
    ),
  );
