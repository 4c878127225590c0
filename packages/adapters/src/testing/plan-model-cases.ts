import {
  type AnyTool,
  createPlanningTools,
  invokeTool,
  Plan,
  type PlanningExtension,
  Session,
  selectLatest,
} from '@plankit/core';
import { batch, dependencies, history, owners, planHistory } from '@plankit/core/plan-model';
import { expect } from 'vitest';

/** One planning call as a model would make it. */
export interface PlanCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** What a host gave back for one call: the text the model reads, and whether it is in the host's error form. */
export interface HostReply {
  readonly error: boolean;
  readonly text: string;
}

/** Runs one call through a host's real machinery, with every tool advertised to it. */
export type HostRun = (
  tools: readonly AnyTool[],
  session: Session,
  call: PlanCall,
) => Promise<HostReply>;

/** One opt-in plan-model option, worked end to end: set up, a call that applies, one that is refused. */
export interface PlanModelCase {
  readonly option: 'dependencies' | 'batch' | 'history' | 'owners';
  readonly extensions: readonly PlanningExtension[];
  readonly setup: Record<string, unknown>;
  /** Runs on the session before the host's calls (another agent's claim, say). */
  readonly prepare?: (session: Session) => Promise<void>;
  readonly apply: PlanCall;
  readonly applied: RegExp;
  readonly check: (session: Session) => void;
  readonly refuse: PlanCall;
  readonly refusal: RegExp;
}

const plan = (session: Session) => selectLatest(session, Plan);

/** The four opt-in options, each with a call that applies and one that is refused. */
export const PLAN_MODEL_CASES: readonly PlanModelCase[] = [
  {
    option: 'dependencies',
    extensions: [dependencies()],
    setup: {
      objective: 'Ship the release',
      initial_steps: [{ title: 'Build' }, { title: 'Test', depends_on: ['S001'] }],
    },
    apply: { name: 'planning_add_step', args: { steps: [{ title: 'Tag', depends_on: ['S002'] }] } },
    applied: /^Queued 1 step/,
    check: (session) => expect(plan(session)?.steps[2]?.depends_on).toEqual(['S002']),
    refuse: { name: 'planning_mark_step', args: { step_id: 'S002', status: 'in_progress' } },
    refusal: /^Tool validation failed: .*S001/,
  },
  {
    option: 'batch',
    extensions: [batch()],
    setup: { objective: 'Tidy up', initial_steps: [{ title: 'a' }, { title: 'b' }] },
    apply: {
      name: 'planning_apply_batch',
      args: {
        operations: [
          { op: 'mark', step_id: 'S001', status: 'done', note: 'merged' },
          { op: 'note', step_id: 'S002', note: 'waiting on review' },
        ],
      },
    },
    applied: /^Applied 2 operations/,
    check: (session) => {
      expect(plan(session)?.steps[0]).toMatchObject({ status: 'done', notes: ['merged'] });
      expect(plan(session)?.steps[1]?.notes).toEqual(['waiting on review']);
    },
    refuse: {
      name: 'planning_apply_batch',
      args: {
        operations: [
          { op: 'mark', step_id: 'S002', status: 'done' },
          { op: 'note', step_id: 'S009', note: 'nope' },
        ],
      },
    },
    refusal: /^Tool validation failed: .*S009/,
  },
  {
    option: 'history',
    extensions: [history({ agent: 'lead' })],
    setup: { objective: 'Write the notes', initial_steps: [{ title: 'Draft' }] },
    apply: {
      name: 'planning_mark_step',
      args: { step_id: 'S001', status: 'in_progress', explanation: 'starting the draft' },
    },
    applied: /S001/,
    check: (session) =>
      expect(planHistory(session).at(-1)).toMatchObject({
        actor: 'lead',
        explanation: 'starting the draft',
      }),
    refuse: {
      name: 'planning_mark_step',
      args: { step_id: 'S001', status: 'done', explanation: 'x'.repeat(600) },
    },
    refusal: /^Tool validation failed: .*[Ee]xplanation/,
  },
  {
    option: 'owners',
    extensions: [owners({ agent: 'worker-1' })],
    setup: { objective: 'Split the work', initial_steps: [{ title: 'Front' }, { title: 'Back' }] },
    prepare: async (session) => {
      const rival = createPlanningTools(session, { extensions: [owners({ agent: 'worker-2' })] });
      const claimed = await invokeTool(rival.planning_claim_step, { step_id: 'S002' }, { session });
      expect(claimed.success).toBe(true);
    },
    apply: { name: 'planning_claim_step', args: { step_id: 'S001' } },
    applied: /S001/,
    check: (session) => expect(plan(session)?.steps[0]?.owner).toBe('worker-1'),
    refuse: { name: 'planning_claim_step', args: { step_id: 'S002' } },
    refusal: /^Tool validation failed: .*worker-2/,
  },
];

/**
 * Works one case through one host: the setup and the applying call come back as results,
 * the refused call in the host's error form with plankit's text (under 2,000 characters),
 * and the refusal changes neither the plan nor its history.
 */
export async function workCase(run: HostRun, c: PlanModelCase): Promise<void> {
  const session = new Session({
    sessionId: `plan-model-${c.option}`,
    clock: () => 1_763_000_000_000,
  });
  const tools: readonly AnyTool[] = createPlanningTools(session, { extensions: c.extensions });
  const setup = await run(tools, session, { name: 'planning_setup_plan', args: c.setup });
  expect(setup, setup.text).toMatchObject({ error: false });
  await c.prepare?.(session);
  const applied = await run(tools, session, c.apply);
  expect(applied.error, applied.text).toBe(false);
  expect(applied.text).toMatch(c.applied);
  c.check(session);
  const before = { plan: plan(session), history: planHistory(session) };
  const refused = await run(tools, session, c.refuse);
  expect(refused.error, refused.text).toBe(true);
  expect(refused.text).toMatch(c.refusal);
  expect(refused.text.length).toBeLessThan(2_000);
  expect({ plan: plan(session), history: planHistory(session) }).toEqual(before);
}
