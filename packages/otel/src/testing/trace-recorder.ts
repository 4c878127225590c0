import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import { type InstrumentPlankitOptions, instrumentPlankit } from '../instrument-plankit.ts';
import { renderSpanTree } from '../render-span-tree.ts';

/** An OpenTelemetry SDK registered for one test, with `@plankit/otel` subscribed to it. */
export interface TraceRecorder {
  readonly provider: BasicTracerProvider;
  /** The finished spans. */
  spans(): ReadableSpan[];
  /**
   * The finished spans as {@link renderSpanTree} renders them, with what changes from run to
   * run (durations, generated ids) replaced by placeholders.
   */
  tree(): string;
  /** Every attribute and event of every span as one JSON text, for "never contains" checks. */
  dump(): string;
  /** Unsubscribes, unregisters the SDK and the context manager. */
  stop(): Promise<void>;
}

/**
 * Registers a tracer provider exporting to memory (or to `exporter`) and an AsyncLocalStorage
 * context manager globally, as an app's SDK set-up does, then calls `instrumentPlankit`.
 */
export function recordTraces(
  options: InstrumentPlankitOptions = {},
  exporter: SpanExporter = new InMemorySpanExporter(),
): TraceRecorder {
  const memory = exporter instanceof InMemorySpanExporter ? exporter : new InMemorySpanExporter();
  const processors = [new SimpleSpanProcessor(memory)];
  if (exporter !== memory) processors.push(new SimpleSpanProcessor(exporter));
  const provider = new BasicTracerProvider({ spanProcessors: processors });
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  trace.setGlobalTracerProvider(provider);
  const stop = instrumentPlankit(options);
  const spans = () => memory.getFinishedSpans();
  return {
    provider,
    spans,
    tree: () => normalise(renderSpanTree(spans())),
    dump: () =>
      JSON.stringify(
        spans().map((span) => ({
          name: span.name,
          attributes: span.attributes,
          events: span.events.map((event) => [event.name, event.attributes]),
          status: span.status,
        })),
      ),
    async stop() {
      stop();
      await provider.shutdown();
      trace.disable();
      context.disable();
    },
  };
}

/** The tree with durations, response ids and generated call ids replaced by placeholders. */
function normalise(tree: string): string {
  return tree
    .replace(/(duration = )[-\d.e]+/g, '$1<seconds>')
    .replace(/(gen_ai\.response\.id = )"[^"]*"/g, '$1"<id>"')
    .replace(/plankit-call-\d+/g, 'plankit-call-<n>');
}
