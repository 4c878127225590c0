import {
  createPlanningTools,
  formatStepId,
  invokeTool,
  type Result,
  Session,
  SetupPlan,
} from '@plankit/core';
import { diagnosticsChannel, TOOL_CALL_CHANNEL } from '@plankit/core/diagnostics';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';
// Not exported by any entry: the bench switches the channel module off for its baseline.
import { resetDiagnostics } from '../src/diagnostics/diagnostics-channel.ts';

const NOW = 1_700_000_000_000;
const SIZE = 200;
const NOTE = 'Started by the benchmark.';
const STEP = formatStepId(SIZE / 2);

function expectOk<T, E>(result: Result<T, E>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/**
 * The `invokeTool mark_step, 200 steps` call of planning.bench.ts, on a session of its own;
 * `channels` says where the channel module is looked up before every run (untimed, and the
 * channels opened then, so the run itself finds them).
 */
function markSide(channels: 'node' | 'none'): BenchSide {
  const session = new Session({ clock: () => NOW });
  const { planning_mark_step: mark } = createPlanningTools(session);
  const initial_steps = Array.from({ length: SIZE }, (_, i) => ({
    title: `Step ${i + 1}`,
    details: null,
  }));
  expectOk(session.dispatch(SetupPlan, { objective: 'Benchmark plan', initial_steps }));
  const snapshot = session.snapshot();
  return {
    reset: () => {
      resetDiagnostics(channels === 'node' ? undefined : null);
      diagnosticsChannel(TOOL_CALL_CHANNEL);
      expectOk(session.rollback(snapshot));
    },
    // Other cases are timed with node:diagnostics_channel as a process has it.
    cleanup: () => resetDiagnostics(),
    run: async () => {
      const result = await invokeTool(
        mark,
        { step_id: STEP, status: 'in_progress', note: NOTE },
        { session, now: NOW },
      );
      if (!result.success) throw result.error;
      return result;
    },
  };
}

const noSubscriber: BenchCase = {
  name: `invokeTool mark_step, ${SIZE} steps, channels, no subscriber`,
  what: 'invokeTool with node:diagnostics_channel and nobody subscribed vs the same call where the module does not exist (no channel checks can succeed)',
  maxRatio: 1.02,
  plankit: () => markSide('node'),
  baseline: () => markSide('none'),
};

/** The cost of the diagnostics channels on the hottest path, while nobody listens. */
export const suite: BenchSuite = {
  name: '@plankit/core diagnostics',
  cases: [noSubscriber],
};
