import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import {
  type Attributes,
  context,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  type TracerProvider,
} from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
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
import type { PlanChanged, ToolCallEvent } from '@plankit/core/diagnostics';
import { instrumentPlankit } from '@plankit/otel';
import type { BenchCase, BenchSide, BenchSuite } from '../../../scripts/bench.ts';
// The same module instance @plankit/core loads under the source condition.
import { resetDiagnostics } from '../../core/src/diagnostics/diagnostics-channel.ts';

// The core bench's invokeTool case (a mark_step on a 200-step plan), timed with @plankit/otel
// subscribed against the same call without it. Both sides share the process's channels, so
// each side's untimed reset attaches its own subscriber (or none) before its runs, and first
// restores node:diagnostics_channel: a full run interleaves these cases with the diagnostics
// suite's, whose baseline side leaves core publishing nowhere (which made both sides here cost
// the same). Each side's cleanup detaches it again, so no other case is timed with it.
const NOW = 1_700_000_000_000;
const SIZE = 200;
const NOTE = 'Started by the benchmark.';

/** What a side subscribes: attaches it and returns how to detach it. */
type Attach = () => () => void;

let detach: (() => void) | undefined;
let attached: Attach | undefined;

/** Makes `attach` the process's only plankit subscriber (none for `undefined`), unless it is. */
function attachOnly(attach: Attach | undefined): void {
  if (attached === attach) return;
  detach?.();
  detach = attach?.();
  attached = attach;
}

const nothing: Attach | undefined = undefined;

function markSide(attach: Attach | undefined, clear?: () => void): BenchSide {
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
      attachOnly(attach);
      clear?.();
      const rolledBack = session.rollback(snapshot);
      if (!rolledBack.ok) throw rolledBack.error;
    },
    // The channels are the process's: a subscriber left behind would be timed in other cases.
    cleanup: () => attachOnly(nothing),
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

/** An exporter to memory, and `instrumentPlankit` or the SDK alone writing to it. */
function inMemory(): {
  readonly exporter: InMemorySpanExporter;
  readonly provider: TracerProvider;
} {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  return { exporter, provider };
}

const instrumented =
  (provider: TracerProvider): Attach =>
  () =>
    instrumentPlankit({ tracerProvider: provider });

/**
 * The least any instrumentation writing what `@plankit/otel` writes could do: a hand-written
 * subscriber that opens the call's span with the same attributes, sets the plan change's on it
 * and ends it, with no clipping, no lookups and no guards. It is what the SDK alone costs, so
 * `@plankit/otel` timed against it is plankit's own share.
 */
const sdkAlone =
  (provider: TracerProvider): Attach =>
  () => {
    const tracer = provider.getTracer('@plankit/otel');
    let span: Span | undefined;
    const onCall = (message: unknown): void => {
      const event = message as ToolCallEvent;
      if (event.phase === 'end') {
        span?.end();
        span = undefined;
        return;
      }
      span = tracer.startSpan(
        `execute_tool ${event.toolName}`,
        {
          kind: SpanKind.INTERNAL,
          attributes: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': event.toolName,
            'gen_ai.tool.call.id': event.callId,
            'gen_ai.tool.type': 'function',
            'plankit.session.id': event.sessionId,
          },
        },
        context.active(),
      );
    };
    const onPlan = (message: unknown): void => {
      const event = message as PlanChanged;
      if (span === undefined) return;
      const attributes: Attributes = {
        'plankit.plan.revision': event.revision,
        'plankit.step.id': event.steps.map((step) => step.stepId),
        'plankit.step.status': event.steps.map((step) => step.status),
        'plankit.step.change': event.steps.map((step) => step.change),
        'plankit.plan.counts.total': event.counts.total,
        'plankit.plan.counts.pending': event.counts.pending,
        'plankit.plan.counts.in_progress': event.counts.in_progress,
        'plankit.plan.counts.blocked': event.counts.blocked,
        'plankit.plan.counts.done': event.counts.done,
      };
      if (event.planStatus !== null) attributes['plankit.plan.status'] = event.planStatus;
      span.setAttributes(attributes);
    };
    subscribe('plankit:tool-call', onCall);
    subscribe('plankit:plan', onPlan);
    return () => {
      unsubscribe('plankit:tool-call', onCall);
      unsubscribe('plankit:plan', onPlan);
    };
  };

/** The name and sorted attribute names of the one span a side's first call exported. */
async function firstSpanShape(side: BenchSide, exporter: InMemorySpanExporter): Promise<string> {
  await side.reset?.();
  await side.run();
  const spans: ReadableSpan[] = exporter.getFinishedSpans();
  const [span] = spans;
  if (spans.length !== 1 || span === undefined)
    throw new Error(`expected one span, got ${spans.length}`);
  return `${span.name}: ${Object.keys(span.attributes).sort().join(', ')}`;
}

const noop: BenchCase = {
  name: `invokeTool mark_step, ${SIZE} steps, @plankit/otel + no-op tracer`,
  what: 'invokeTool with @plankit/otel on a tracer without an SDK vs without @plankit/otel',
  maxRatio: 1.1,
  plankit: () => markSide(instrumented(new ProxyTracerProvider())),
  baseline: () => markSide(nothing),
};

const memory: BenchCase = {
  name: `invokeTool mark_step, ${SIZE} steps, @plankit/otel + in-memory exporter`,
  what: 'invokeTool with @plankit/otel exporting to memory vs without @plankit/otel',
  maxRatio: 2,
  plankit: () => {
    const { exporter, provider } = inMemory();
    return markSide(instrumented(provider), () => exporter.reset());
  },
  baseline: () => markSide(nothing),
};

// Both sides write the same span; the factory checks that once, untimed, before any timing.
let ownShare: { readonly plankit: BenchSide; readonly baseline: BenchSide } | undefined;
async function ownShareSides(): Promise<{
  readonly plankit: BenchSide;
  readonly baseline: BenchSide;
}> {
  if (ownShare !== undefined) return ownShare;
  const own = inMemory();
  const alone = inMemory();
  const plankit = markSide(instrumented(own.provider), () => own.exporter.reset());
  const baseline = markSide(sdkAlone(alone.provider), () => alone.exporter.reset());
  const [mine, theirs] = [
    await firstSpanShape(plankit, own.exporter),
    await firstSpanShape(baseline, alone.exporter),
  ];
  if (mine !== theirs) throw new Error(`the two sides' spans differ:\n${mine}\n${theirs}`);
  ownShare = { plankit, baseline };
  return ownShare;
}

const share: BenchCase = {
  name: `invokeTool mark_step, ${SIZE} steps, @plankit/otel vs the SDK alone`,
  what: "@plankit/otel exporting to memory vs a hand-written subscriber setting the same span's attributes (the SDK's own cost)",
  maxRatio: 1.15,
  plankit: async () => (await ownShareSides()).plankit,
  baseline: async () => (await ownShareSides()).baseline,
};

/** The cost of @plankit/otel on the planning tool call path. */
export const suite: BenchSuite = {
  name: '@plankit/otel',
  cases: [noop, memory, share],
};
