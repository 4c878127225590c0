import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { otlpProtocol, otlpTracesUrl } from './demo-telemetry.ts';
import { type OtlpReceiver, startOtlpReceiver } from './otlp-receiver.ts';
import { runDemo } from './run-demo.ts';
import { OBJECTIVE } from './script.ts';

let directory: string | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  await receiver?.close();
  directory = undefined;
  receiver = undefined;
});

async function demoLines(env: Record<string, string>, trace = false): Promise<string[]> {
  directory = await mkdtemp(join(tmpdir(), 'plankit-demo-otlp-'));
  const lines: string[] = [];
  await runDemo({
    host: 'openai',
    print: (line) => lines.push(line),
    storeDirectory: directory,
    env,
    trace,
  });
  return lines;
}

describe('the demo with OpenTelemetry', () => {
  for (const protocol of ['http/json', 'http/protobuf'] as const) {
    it(`exports plankit's spans over OTLP ${protocol} to OTEL_EXPORTER_OTLP_ENDPOINT`, async () => {
      receiver = await startOtlpReceiver();
      const lines = await demoLines({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
      });
      expect(lines.join('\n')).toContain(`plankit's spans go to OTLP ${protocol}`);
      expect(receiver.contentTypes.length).toBeGreaterThan(0);
      for (const type of receiver.contentTypes)
        expect(type).toContain(protocol === 'http/json' ? 'json' : 'protobuf');
      const { spans } = receiver;
      const names = new Set(spans.map((span) => span.name));
      expect(names).toContain('invoke_agent release-planner');
      expect(names).toContain('plan release-planner');
      expect(names).toContain('execute_tool planning_setup_plan');
      expect(names).toContain('execute_tool planning_mark_step');
      const tools = spans.filter((span) => span.name.startsWith('execute_tool '));
      for (const span of tools) {
        expect(span.attributes['gen_ai.operation.name']).toBe('execute_tool');
        expect(span.attributes['gen_ai.tool.type']).toBe('function');
        expect(span.name).toBe(`execute_tool ${span.attributes['gen_ai.tool.name']}`);
        // The transcript's own call ids (call_...), which the OpenAI toolset passes on.
        expect(span.attributes['gen_ai.tool.call.id']).toMatch(/^call_/);
        expect(span.attributes['gen_ai.conversation.id']).toBe('demo-openai');
      }
      // The demo's model writes an en dash in a title once: that call is refused, by its code.
      expect(tools.map((span) => span.attributes['error.type']).filter(Boolean)).toEqual([
        'text_not_ascii',
      ]);
      const last = tools.at(-1)?.attributes;
      expect(last?.['plankit.plan.status']).toBe('completed');
      expect(last?.['plankit.plan.counts.done']).toBe(last?.['plankit.plan.counts.total']);
      // Content capture is off: no plan text leaves the process.
      expect(JSON.stringify(spans)).not.toContain(OBJECTIVE);
      expect(JSON.stringify(spans)).not.toContain('gen_ai.tool.call.arguments');
    }, 60_000);
  }

  it('records plan text only with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true', async () => {
    receiver = await startOtlpReceiver();
    await demoLines({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    });
    const setup = receiver.spans.find((span) => span.name === 'execute_tool planning_setup_plan');
    expect(setup?.attributes['plankit.plan.objective']).toBe(OBJECTIVE);
    expect(String(setup?.attributes['gen_ai.tool.call.arguments'])).toContain(OBJECTIVE);
  }, 60_000);

  it('--trace prints the span tree at the end', async () => {
    const lines = await demoLines({}, true);
    const output = lines.join('\n');
    expect(output).toContain("plankit's spans go to the span tree below");
    const tree = output.slice(output.indexOf('Span tree (--trace):'));
    expect(tree).toContain('\ninvoke_agent release-planner\n');
    // The planning calls hang under the controller's plan span, inside the demo's agent span.
    expect(tree).toContain('\n  plan release-planner\n');
    expect(tree).toContain('\n    execute_tool planning_setup_plan\n');
    expect(tree).toContain('@ plankit.transition');
    expect(tree).toContain('error.type = "text_not_ascii"');
  }, 60_000);

  it('reads the standard variables: the traces endpoint, the protocol, http/protobuf by default', () => {
    expect(otlpTracesUrl({})).toBeUndefined();
    expect(otlpTracesUrl({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toBe(
      'http://collector:4318/v1/traces',
    );
    expect(
      otlpTracesUrl({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:4318/custom',
      }),
    ).toBe('http://traces:4318/custom');
    expect(otlpProtocol({})).toBe('http/protobuf');
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('http/json');
    expect(
      otlpProtocol({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf',
      }),
    ).toBe('http/protobuf');
  });
});
