import { createPlanningTools, invokeTool, type PlanningTools, Session } from '@plankit/core';
import type { BenchSide } from '../../../scripts/bench.ts';

// Shared by the adapters' bench files: a session holding a 20-step plan, and the bare
// invokeTool every host row is measured against.

/** The clock of every bench session. */
export const NOW = 1_700_000_000_000;
/** The call every row makes: a mark_step that succeeds on the prepared plan. */
export const MARK = { step_id: 'S002', status: 'in_progress', note: 'Started.' } as const;

/** A session with a 20-step plan, its tools, and a reset back to that plan. */
export interface Prepared {
  readonly session: Session;
  readonly tools: PlanningTools;
  /** Rolls the session back to the prepared plan (untimed, before every run). */
  readonly reset: () => void;
}

/** Builds a {@link Prepared} session. */
export async function prepare(): Promise<Prepared> {
  const session = new Session({ clock: () => NOW });
  const tools = createPlanningTools(session);
  const steps = Array.from({ length: 20 }, (_, i) => ({ title: `Step ${i + 1}` }));
  const setup = await invokeTool(
    tools.planning_setup_plan,
    { objective: 'Benchmark', initial_steps: steps },
    { session },
  );
  if (!setup.success) throw setup.error;
  const snapshot = session.snapshot();
  return {
    session,
    tools,
    reset: () => {
      const back = session.rollback(snapshot);
      if (!back.ok) throw back.error;
    },
  };
}

/** The baseline of every host row: the bare invokeTool the adapters wrap. */
export async function bareInvoke(): Promise<BenchSide> {
  const { session, tools, reset } = await prepare();
  return {
    reset,
    run: async () => {
      const result = await invokeTool(tools.planning_mark_step, MARK, { session, now: NOW });
      if (!result.success) throw result.error;
      return result;
    },
  };
}
