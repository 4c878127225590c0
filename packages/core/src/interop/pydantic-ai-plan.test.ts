import { describe, expect, it } from 'vitest';
import { createPlanningTools } from '../planning/create-planning-tools.ts';
import { Plan } from '../planning/plan.ts';
import { selectLatest } from '../select-latest.ts';
import { Session } from '../session.ts';
import { applyPlanningCalls } from './apply-planning-calls.ts';
import { fromPydanticAIPlan, toPydanticAIPlan } from './pydantic-ai-plan.ts';
import { planWith } from './testing/plan-with.ts';

async function write(
  session: Session,
  tools: Parameters<typeof applyPlanningCalls>[0],
  args: unknown,
) {
  const converted = fromPydanticAIPlan(selectLatest(session, Plan), args);
  if (!converted.ok) return converted;
  return applyPlanningCalls(tools, converted.value.calls, { session });
}

// Ported from pydantic-ai-harness tests/planning/test_planning.py: the write_plan inputs those
// tests send, through a plankit plan. Tests of the harness's renderers, events, stores and
// subtask tools are about its own toolset and have no counterpart here.
describe('pydantic-ai-harness planning (test_planning.py)', () => {
  it('TestTypes.test_plan_item_defaults: an item with only content is pending', () => {
    const converted = fromPydanticAIPlan(undefined, { items: [{ content: 'do' }] });
    expect(converted).toEqual({
      ok: true,
      value: {
        calls: [
          {
            tool: 'planning_setup_plan',
            args: { objective: 'Plan', initial_steps: [{ title: 'do' }] },
          },
        ],
        unlisted: [],
      },
    });
  });

  it('TestWritePlan.test_replaces_and_reports: two items make two pending steps', async () => {
    const { session, tools } = await planWith([]);
    const applied = await write(session, tools, { items: [{ content: 'A' }, { content: 'B' }] });
    if (!applied.ok) throw applied.error;
    expect(toPydanticAIPlan(applied.value).items).toEqual([
      { id: 'S001', content: 'A', status: 'pending', depends_on: [] },
      { id: 'S002', content: 'B', status: 'pending', depends_on: [] },
    ]);
  });

  it('TestWritePlan.test_multi_in_progress_note: two in_progress steps pass, unless inProgress is single', async () => {
    const items = [
      { content: 'A', status: 'in_progress' },
      { content: 'B', status: 'in_progress' },
    ];
    const { session, tools } = await planWith([]);
    expect((await write(session, tools, { items })).ok).toBe(true);
    const single = new Session({ sessionId: 'single' });
    const singleTools = createPlanningTools(single, { inProgress: 'single' });
    const refused = await write(single, singleTools, { items });
    expect(refused.ok ? undefined : refused.error.code).toBe('step_in_progress');
    expect(selectLatest(single, Plan)).toBeUndefined();
  });

  it('TestWritePlan.test_rejects_duplicate_ids_without_subtasks_before_replacing_plan', async () => {
    const { session, tools } = await planWith([]);
    expect((await write(session, tools, { items: [{ id: 'kept', content: 'Kept' }] })).ok).toBe(
      true,
    );
    const before = session.snapshot();
    const refused = await write(session, tools, {
      items: [
        { id: 'same', content: 'A' },
        { id: 'same', content: 'B' },
      ],
    });
    expect(refused.ok ? undefined : refused.error.code).toBe('list_duplicate');
    expect(session.snapshot()).toBe(before);
    expect(toPydanticAIPlan(selectLatest(session, Plan)).items.map((item) => item.content)).toEqual(
      ['Kept'],
    );
  });
});

describe('blocked in the harness', () => {
  it("shows only on a step that waits on another, and a pending write keeps plankit's blocked", async () => {
    const { session } = await planWith([{ title: 'A', status: 'blocked' }, { title: 'B' }]);
    // plankit's blocked step here waits on nothing, so the harness would refuse `blocked`.
    expect(toPydanticAIPlan(selectLatest(session, Plan)).items[0]?.status).toBe('pending');
    // And a write saying `pending` for it leaves it blocked.
    const converted = fromPydanticAIPlan(selectLatest(session, Plan), {
      items: [
        { id: 'S001', content: 'A', status: 'pending' },
        { id: 'S002', content: 'B', status: 'pending' },
      ],
    });
    expect(converted.ok ? converted.value.calls : undefined).toEqual([]);
  });
});
