import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

/** What the demo's run records, and how it stops. */
export interface DemoTelemetry {
  /** Where spans go, for the first line of the demo's output. */
  readonly description: string;
  /** Runs the agent inside the demo's own `invoke_agent` span, as a host's agent loop would. */
  readonly run: (work: () => Promise<void>) => Promise<void>;
  /** Stops plankit's instrumentation, exports what is left and returns the span tree (`--trace`). */
  readonly stop: () => Promise<string | undefined>;
}

/** Where the demo's telemetry goes: an OTLP collector, the terminal, both, or nowhere. */
export interface DemoTelemetryOptions {
  /** The environment: the standard `OTEL_EXPORTER_OTLP_*` variables choose the exporter. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Keep the spans in memory and return their tree at the end (`npm run demo -- --trace`). */
  readonly trace: boolean;
}

/** The OTLP/HTTP traces URL the standard variables name, or `undefined` without one. */
export function otlpTracesUrl(
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const traces = env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'];
  if (traces !== undefined && traces !== '') return traces;
  const base = env['OTEL_EXPORTER_OTLP_ENDPOINT'];
  if (base === undefined || base === '') return undefined;
  return `${base.replace(/\/+$/, '')}/v1/traces`;
}

/** The OTLP protocol the standard variables ask for: `http/protobuf` unless they say otherwise. */
export function otlpProtocol(env: Readonly<Record<string, string | undefined>>): string {
  return (
    env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ||
    env['OTEL_EXPORTER_OTLP_PROTOCOL'] ||
    'http/protobuf'
  ).trim();
}

async function otlpExporter(url: string, protocol: string): Promise<SpanExporter> {
  switch (protocol) {
    case 'http/json': {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
      return new OTLPTraceExporter({ url });
    }
    case 'http/protobuf': {
      const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
      return new OTLPTraceExporter({ url });
    }
    default:
      throw new Error(
        `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol}: the demo exports over http/protobuf or http/json (gRPC needs @opentelemetry/exporter-trace-otlp-grpc).`,
      );
  }
}

/**
 * Registers an OpenTelemetry SDK for the demo's run and `@plankit/otel` on it, when the
 * environment names an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`, exported over OTLP/HTTP
 * per `OTEL_EXPORTER_OTLP_PROTOCOL`) or `--trace` asks for the span tree; `undefined`
 * otherwise, and then nothing is loaded. The packages are imported here only, so the demo's
 * other runs do not load them.
 */
export async function startDemoTelemetry(
  options: DemoTelemetryOptions,
): Promise<DemoTelemetry | undefined> {
  const url = otlpTracesUrl(options.env);
  if (url === undefined && !options.trace) return undefined;
  const [{ context, trace }, sdk, { AsyncLocalStorageContextManager }, resources, otel] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/resources'),
      import('@plankit/otel'),
    ]);
  const processors = [];
  const destinations: string[] = [];
  if (url !== undefined) {
    const protocol = otlpProtocol(options.env);
    processors.push(new sdk.BatchSpanProcessor(await otlpExporter(url, protocol)));
    destinations.push(`OTLP ${protocol} to ${url}`);
  }
  const memory = options.trace ? new sdk.InMemorySpanExporter() : undefined;
  if (memory !== undefined) {
    processors.push(new sdk.SimpleSpanProcessor(memory));
    destinations.push('the span tree below');
  }
  const provider = new sdk.BasicTracerProvider({
    resource: resources.resourceFromAttributes({
      'service.name': options.env['OTEL_SERVICE_NAME'] || 'plankit-demo',
    }),
    spanProcessors: processors,
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  trace.setGlobalTracerProvider(provider);
  const capture = options.env['OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT'];
  const stopInstrumentation = otel.instrumentPlankit({
    agentName: 'release-planner',
    captureContent: capture?.trim().toLowerCase() === 'true',
  });
  const tracer = trace.getTracer('plankit-demo');
  return {
    run: (work) =>
      tracer.startActiveSpan(
        'invoke_agent release-planner',
        {
          attributes: {
            'gen_ai.operation.name': 'invoke_agent',
            'gen_ai.agent.name': 'release-planner',
          },
        },
        async (span) => {
          try {
            await work();
          } finally {
            span.end();
          }
        },
      ),
    description: `Telemetry: plankit's spans go to ${destinations.join(' and ')}.`,
    async stop() {
      stopInstrumentation();
      await provider.forceFlush();
      const tree =
        memory === undefined ? undefined : otel.renderSpanTree(memory.getFinishedSpans());
      await provider.shutdown();
      // Unregistered, so a second run in the same process (the tests) registers afresh.
      trace.disable();
      context.disable();
      return tree;
    },
  };
}
