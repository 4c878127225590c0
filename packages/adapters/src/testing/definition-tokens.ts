import type { AnyTool } from '@plankit/core';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { toolJsonSchema } from '../tool-json-schema.ts';

/**
 * o200k tokens of tool definitions as a request carries them: name, description and JSON Schema
 * of each tool, as one JSON array. The token-economy bench and the token budget test count alike.
 */
export const definitionTokens = (tools: readonly AnyTool[]): number =>
  countTokens(
    JSON.stringify(
      tools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        parameters: toolJsonSchema(tool),
      })),
    ),
  );
