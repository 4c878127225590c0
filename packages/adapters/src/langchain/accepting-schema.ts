import type { AnyTool } from '@plankit/core';
import * as z from 'zod';
import { toolJsonSchema } from '../tool-json-schema.ts';

const schemas = new WeakMap<AnyTool, z.ZodType>();

/**
 * The zod schema a LangChain tool is built with. LangChain validates arguments against it and
 * throws its own error before the tool runs, so it shows the model the tool's exact JSON Schema
 * but accepts any value: plankit validates (and refuses non-objects and `__proto__` keys) in
 * its own words. One schema per tool, computed once.
 */
export function acceptingSchema(tool: AnyTool): z.ZodType {
  let schema = schemas.get(tool);
  if (schema === undefined) {
    schema = z.unknown().meta({ ...toolJsonSchema(tool) });
    schemas.set(tool, schema);
  }
  return schema;
}

/** The part of a LangChain tool config we read: the tool call (its id). */
export interface ToolConfig {
  readonly toolCall?: { readonly id?: string | undefined } | undefined;
}
