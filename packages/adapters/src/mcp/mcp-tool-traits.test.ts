import { createPlanningTools, defineDataType, defineTool, Session } from '@plankit/core';
import { batch, owners } from '@plankit/core/plan-model';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { mcpToolAnnotations } from './mcp-tool-traits.ts';

describe('mcpToolAnnotations for the opt-in plan model', () => {
  it('gives the batch, claim and release tools their own hints', () => {
    const tools = createPlanningTools(new Session(), {
      extensions: [batch(), owners({ agent: 'a' })],
    });
    expect(mcpToolAnnotations(tools.planning_apply_batch, undefined)).toMatchObject({
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(mcpToolAnnotations(tools.planning_claim_step, undefined)).toMatchObject({
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(mcpToolAnnotations(tools.planning_release_step, undefined)).toMatchObject({
      destructiveHint: true,
      idempotentHint: true,
    });
  });

  it('lets the host override a hint', () => {
    const tools = createPlanningTools(new Session(), { extensions: [batch()] });
    expect(mcpToolAnnotations(tools.planning_apply_batch, { title: 'Batch' })?.title).toBe('Batch');
  });
});

describe('mcpToolAnnotations from a tool of your own', () => {
  const Deleted = defineDataType('test.file_deleted', z.strictObject({ path: z.string() }));

  it('lists the traits the tool declares, in the hints order', () => {
    const remove = defineTool({
      name: 'delete_file',
      description: 'Delete a file.',
      parameters: z.strictObject({ path: z.string() }),
      resultType: Deleted,
      traits: { title: 'Delete a file', destructive: true, idempotent: true, openWorld: true },
      handler: ({ path }) => ({ message: 'Deleted.', value: { path } }),
    });
    const annotations = mcpToolAnnotations(remove, undefined);
    expect(annotations).toEqual({
      title: 'Delete a file',
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
    });
    expect(Object.isFrozen(annotations)).toBe(true);
  });

  it('keeps readOnlyHint for a tool without a resultType, unless the tool says otherwise', () => {
    const look = (traits: { readOnly?: boolean }) =>
      defineTool({
        name: 'look',
        description: 'Look around.',
        parameters: z.strictObject({}),
        traits,
        handler: () => ({ message: 'Seen.', value: null }),
      });
    expect(mcpToolAnnotations(look({}), undefined)).toEqual({ readOnlyHint: true });
    expect(mcpToolAnnotations(look({ readOnly: false }), undefined)).toEqual({
      readOnlyHint: false,
    });
  });

  it('gives a tool with a resultType and no traits no annotations', () => {
    const write = defineTool({
      name: 'write_file',
      description: 'Write a file.',
      parameters: z.strictObject({ path: z.string() }),
      resultType: Deleted,
      handler: ({ path }) => ({ message: 'Written.', value: { path } }),
    });
    expect(mcpToolAnnotations(write, undefined)).toBeUndefined();
  });
});
