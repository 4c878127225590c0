import type { AnyTool } from '@plankit/core';
import * as z from 'zod';

/** A JSON Schema document, as plain data. @public */
export type JsonSchema = { readonly [keyword: string]: unknown };

const cache = new WeakMap<AnyTool, JsonSchema>();

/**
 * The JSON Schema (draft 7) of what a model sends to a tool: the parameters' input side, so
 * fields with defaults are optional. Tools are immutable, so the schema is computed once per
 * tool and frozen.
 *
 * @public
 */
export function toolJsonSchema(tool: AnyTool): JsonSchema {
  const cached = cache.get(tool);
  if (cached !== undefined) return cached;
  const { $schema: _dialect, ...schema } = z.toJSONSchema(tool.parameters, {
    io: 'input',
    target: 'draft-7',
  }) as Record<string, unknown>;
  const frozen = deepFreezeJson(schema);
  cache.set(tool, frozen);
  return frozen;
}

function deepFreezeJson<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const child of Object.values(value)) deepFreezeJson(child);
    Object.freeze(value);
  }
  return value;
}
