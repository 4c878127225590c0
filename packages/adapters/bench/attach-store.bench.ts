import { attachStore, MemoryStore, type SessionAttachment } from '@plankit/adapters/stores';
import { createPlanningTools, invokeTool, Session } from '@plankit/core';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';
import { NOW, prepare } from './planned-session.ts';

// Growth with history while a store is attached: attachStore checks what each commit added,
// which must cost the same after 200 and after 100,000 logged calls. Snapshots are off
// (`snapshotEvery: Infinity`): a snapshot serialises the whole state by design, once every
// `snapshotEvery` events, and would hide the per-commit cost measured here.
const HISTORIES = [200, 20_000, 100_000] as const;
// No note: runs are not rolled back, and notes would make the plan grow with every run.
const MARK = { step_id: 'S002', status: 'in_progress', note: null } as const;

const rowName = (calls: number): string =>
  `invokeTool + flush, MemoryStore attached, after ${calls.toLocaleString('en-US')} calls`;

/** A session with a 20-step plan and `calls` logged mark_step calls, attached to a store. */
async function attachedWithHistory(calls: number): Promise<{
  session: Session;
  mark: ReturnType<typeof createPlanningTools>[3];
  attachment: SessionAttachment;
}> {
  const session = new Session({ clock: () => NOW });
  const tools = createPlanningTools(session);
  const attached = await attachStore(session, new MemoryStore(), { snapshotEvery: Infinity });
  if (!attached.ok) throw attached.error;
  const steps = Array.from({ length: 20 }, (_, i) => ({ title: `Step ${i + 1}` }));
  const setup = await invokeTool(
    tools.planning_setup_plan,
    { objective: 'Bench', initial_steps: steps },
    { session },
  );
  if (!setup.success) throw setup.error;
  for (let i = 1; i < calls; i++) {
    const status = i % 2 === 0 ? 'in_progress' : 'pending';
    const result = await invokeTool(
      tools.planning_mark_step,
      { step_id: 'S002', status, note: null },
      { session, now: NOW },
    );
    if (!result.success) throw result.error;
    if (i % 1000 === 0) await attached.value.flush();
  }
  const flushed = await attached.value.flush();
  if (!flushed.ok) throw flushed.error;
  return { session, mark: tools.planning_mark_step, attachment: attached.value };
}

function historyCase(calls: number): BenchCase {
  return {
    name: rowName(calls),
    what:
      'invokeTool(mark_step) and flush with a MemoryStore attached, on a session with that many ' +
      'logged calls (no rollback between runs: each run adds one) vs the bare invokeTool, no store',
    plankit: async (): Promise<BenchSide> => {
      const { session, mark, attachment } = await attachedWithHistory(calls);
      return {
        run: async () => {
          const result = await invokeTool(mark, MARK, { session, now: NOW });
          if (!result.success) throw result.error;
          const flushed = await attachment.flush();
          if (!flushed.ok) throw flushed.error;
          return flushed.value;
        },
      };
    },
    baseline: async (): Promise<BenchSide> => {
      const { session, tools, reset } = await prepare();
      return {
        reset,
        run: async () => {
          const result = await invokeTool(tools.planning_mark_step, MARK, { session, now: NOW });
          if (!result.success) throw result.error;
          return result;
        },
      };
    },
  };
}

/** attachStore's per-commit cost against the length of the tool-call log. */
export const suite: BenchSuite = {
  name: '@plankit/adapters attachStore growth',
  cases: HISTORIES.map((calls) => historyCase(calls)),
  growth: [
    {
      name: 'attached invokeTool, 200 -> 20,000 logged calls',
      from: rowName(200),
      to: rowName(20_000),
      factor: 1.5,
    },
    {
      name: 'attached invokeTool, 200 -> 100,000 logged calls',
      from: rowName(200),
      to: rowName(100_000),
      factor: 1.5,
    },
  ],
};
