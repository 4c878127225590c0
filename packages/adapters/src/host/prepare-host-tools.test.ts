import { type AnyTool, createPlanningTools, defineTool, Session } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AdapterError } from '../adapter-error.ts';
import { toolJsonSchema } from '../tool-json-schema.ts';
import { openAIStrictSchema } from './openai-strict-schema.ts';
import { prepareHostTools } from './prepare-host-tools.ts';

const KEYS: ReadonlySet<string> = new Set(['strict', 'clock']);
const HOST = { where: 'f', keys: KEYS, strictSchema: openAIStrictSchema };
const planning: readonly AnyTool[] = [...createPlanningTools(new Session())];
const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a word up.',
  parameters: z.object({ word: z.string(), lang: z.string().optional() }),
  handler: ({ word }) => ({ message: word, value: null }),
});

describe('prepareHostTools', () => {
  it("offers each tool strict by its trait unless the option decides, with the schema's strict form", () => {
    const { offered } = prepareHostTools([...planning, lookup], {}, HOST);
    const byName = new Map(offered.map((entry) => [entry.tool.name, entry]));
    expect(byName.get('planning_setup_plan')?.strict).toBe(true);
    expect(byName.get('lookup')).toMatchObject({ strict: false, schema: toolJsonSchema(lookup) });
    const strict = prepareHostTools([lookup], { strict: true }, HOST);
    expect(strict.offered[0]?.schema).toMatchObject({
      required: ['word', 'lang'],
      additionalProperties: false,
    });
  });

  it("reads strict mode's nulls back as absent for the tool that runs the call, and only for it", () => {
    const { prepare } = prepareHostTools([lookup], { strict: true }, HOST);
    expect(prepare({ word: 'a', lang: null }, lookup)).toEqual({ word: 'a' });
    const loose = prepareHostTools([lookup], { strict: false }, HOST);
    expect(loose.prepare({ word: 'a', lang: null }, lookup)).toEqual({ word: 'a', lang: null });
  });

  it('offers every tool with its own schema on a host without strict mode', () => {
    const { offered } = prepareHostTools(
      planning,
      {},
      { where: 'f', keys: KEYS, strictSchema: null },
    );
    expect(offered.every((entry) => !entry.strict)).toBe(true);
    expect(offered[0]?.schema).toBe(toolJsonSchema(planning[0] as AnyTool));
  });

  it('refuses two tools of one name when built, naming both entries and the name', () => {
    const impostor = defineTool({
      name: 'planning_mark_step',
      description: 'Marks something else.',
      parameters: z.object({}),
      handler: () => ({ message: 'mine', value: null }),
    });
    const refused = new AdapterError(
      'tools_invalid',
      'f: tools[7] and tools[3] are both named "planning_mark_step": tool names must be unique, since the model calls a tool by its name.',
      { field: 'tools[7].name' },
    );
    expect(planning[3]?.name).toBe('planning_mark_step');
    expect(() => prepareHostTools([...planning, lookup, impostor], {}, HOST)).toThrow(refused);
    expect(() => prepareHostTools([lookup, lookup], {}, HOST)).toThrow(
      'f: tools[1] and tools[0] are both named "lookup"',
    );
  });

  it('refuses a list that is not an array, an unknown option and a bad clock, naming the adapter', () => {
    expect(() => prepareHostTools({} as never, {}, HOST)).toThrow(
      new AdapterError('tools_invalid', 'f: tools must be an array of plankit tools.', {
        field: 'tools',
      }),
    );
    expect(() => prepareHostTools([], { stict: true } as never, HOST)).toThrow(
      'f: options.stict is not an option.',
    );
    const { clock } = prepareHostTools([], { clock: () => 7 }, HOST);
    expect(clock?.()).toBe(7);
  });

  it('names the tool whose schema strict mode cannot express', () => {
    const tuple = defineTool({
      name: 'tags',
      description: 'Takes tags.',
      parameters: z.object({ tags: z.record(z.string(), z.string()) }),
      handler: () => ({ message: 'ok', value: null }),
    });
    let thrown: unknown;
    try {
      prepareHostTools([tuple], { strict: true }, HOST);
    } catch (error) {
      thrown = error;
    }
    expect(AdapterError.isInstance(thrown)).toBe(true);
    expect((thrown as AdapterError).message).toMatch(/^Tool 'tags': /);
    expect(thrown).toMatchObject({ code: 'schema_unsupported' });
  });
});
