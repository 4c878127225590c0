import type { AnyTool } from '@plankit/core';
import * as z from 'zod';
import { toolJsonSchema } from '../tool-json-schema.ts';

const cache = new WeakMap<AnyTool, z.ZodType>();

/**
 * A zod schema for hosts that validate arguments themselves before calling a tool (MCP,
 * LangChain). Its JSON Schema is exactly the tool's (zod copies metadata into the output),
 * but it accepts any object, so the arguments reach `invokeTool` and the model reads
 * plankit's own messages instead of the host's.
 */
export function advertisedSchema(tool: AnyTool): z.ZodType {
  let schema = cache.get(tool);
  if (schema === undefined) {
    schema = z.looseObject({}).meta({ ...toolJsonSchema(tool) });
    cache.set(tool, schema);
  }
  return schema;
}
