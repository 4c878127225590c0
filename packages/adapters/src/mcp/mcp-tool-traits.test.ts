import { createPlanningTools, Session } from '@plankit/core';
import { describe, expect, it } from 'vitest';
import { mcpToolAnnotations } from './mcp-tool-traits.ts';

describe('mcpToolAnnotations for the opt-in plan model', () => {
  it('gives the batch, claim and release tools their own hints', () => {
    const tools = createPlanningTools(new Session(), { batch: true, owners: true, agent: 'a' });
    const hints = Object.fromEntries(
      tools.slice(6).map((tool) => [tool.name, mcpToolAnnotations(tool, undefined)]),
    );
    expect(Object.keys(hints)).toEqual([
      'planning_apply_batch',
      'planning_claim_step',
      'planning_release_step',
    ]);
    expect(hints['planning_apply_batch']).toMatchObject({
      destructiveHint: true,
      idempotentHint: false,
    });
    expect(hints['planning_claim_step']).toMatchObject({
      destructiveHint: false,
      idempotentHint: true,
    });
    expect(hints['planning_release_step']).toMatchObject({
      destructiveHint: true,
      idempotentHint: true,
    });
  });

  it('lets the host override a hint', () => {
    const [batch] = createPlanningTools(new Session(), { batch: true }).slice(6);
    expect(mcpToolAnnotations(batch as NonNullable<typeof batch>, { title: 'Batch' })?.title).toBe(
      'Batch',
    );
  });
});
