import type { AnyTool } from '@plankit/core';
import { AdapterError } from '../adapter-error.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';
import {
  type StrictJsonSchema,
  toStrictJsonSchema,
} from './strict-schema/to-strict-json-schema.ts';

/**
 * The OpenAI strict form of `tool`'s schema; a schema it cannot express is refused naming the
 * tool.
 *
 * @throws AdapterError `schema_unsupported`
 */
export function openAIStrictSchema(tool: AnyTool): StrictJsonSchema {
  try {
    return toStrictJsonSchema(toolJsonSchema(tool));
  } catch (error) {
    if (!AdapterError.isInstance(error)) throw error;
    throw new AdapterError('schema_unsupported', `Tool '${tool.name}': ${error.message}`, {
      field: error.field,
      cause: error,
    });
  }
}
