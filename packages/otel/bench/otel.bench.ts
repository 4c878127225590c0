import { ProxyTracerProvider, type TracerProvider } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  createPlanningTools,
  formatStepId,
  invokeTool,
  registerPlanningReducers,
  Session,
  SetupPlan,
} from '@plankit/core';
import { instrumentPlankit, type StopInstrumentation } from '@plankit/otel';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';
// The same module instance @plankit/core loads under the source condition.
import { resetDiagnostics } from '../../core/src/diagnostics/diagnostics-channel.ts';

// The core bench's invokeTool case (a mark_step on a 200-step plan), timed with @plankit/otel
// subscribed against the same call without it. Both sides share the process's channels, so
// each side's untimed reset subscribes or unsubscribes before its runs, and first restores
// node:diagnostics_channel: a full run interleaves these cases with the diagnostics suite's,
// whose baseline side leaves core publishing nowhere (which made both sides here cost the same).
const NOW = 1_700_000_000_000;
const SIZE = 200;
const NOTE = 'Started by the benchmark.';

let stop: StopInstrumentation | undefined;
let subscribedTo: TracerProvider | undefined;

/** Subscribes @plankit/otel to `provider`, or nothing for `undefined`, unless already so. */
function instrument(provider: TracerProvider | undefined): void {
  if (subscribedTo === provider) return;
  stop?.();
  stop = provider === undefined ? undefined : instrumentPlankit({ tracerProvider: provider });
  subscribedTo = provider;
}

function markSide(provider: TracerProvider | undefined, clear?: () => void): BenchSide {
  const session = new Session({ clock: () => NOW });
  const { planning_mark_step: mark } = createPlanningTools(session);
  registerPlanningReducers(session);
  const setup = session.dispatch(SetupPlan, {
    objective: 'Benchmark plan',
    initial_steps: Array.from({ length: SIZE }, (_, i) => ({
      title: `Step ${i + 1}`,
      details: null,
    })),
  });
  if (!setup.ok) throw setup.error;
  const snapshot = session.snapshot();
  const step_id = formatStepId(SIZE / 2);
  return {
    reset: () => {
      resetDiagnostics();
      instrument(provider);
      clear?.();
      const rolledBack = session.rollback(snapshot);
      if (!rolledBack.ok) throw rolledBack.error;
    },
    run: async () => {
      const result = await invokeTool(
        mark,
        { step_id, status: 'in_progress', note: NOTE },
        { session, now: NOW },
      );
      if (!result.success) throw result.error;
      return result;
    },
  };
}

const noop: BenchCase = {
  name: `invokeTool mark_step, ${SIZE} steps, @plankit/otel + no-op tracer`,
  what: 'invokeTool with @plankit/otel on a tracer without an SDK vs without @plankit/otel',
  maxRatio: 1.1,
  plankit: () => markSide(new ProxyTracerProvider()),
  baseline: () => markSide(undefined),
};

const memory: BenchCase = {
  name: `invokeTool mark_step, ${SIZE} steps, @plankit/otel + in-memory exporter`,
  what: 'invokeTool with @plankit/otel exporting to memory vs without @plankit/otel',
  maxRatio: 2,
  plankit: () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    return markSide(provider, () => exporter.reset());
  },
  baseline: () => markSide(undefined),
};

/** The cost of @plankit/otel on the planning tool call path. */
export const suite: BenchSuite = {
  name: '@plankit/otel',
  cases: [noop, memory],
};
