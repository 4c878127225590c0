import { fileURLToPath } from 'node:url';
import { attachStore, FileStore } from '@plankit/adapters/stores';
import { Session, selectAll, ToolCall } from '@plankit/core';
import { startDemoTelemetry } from './demo-telemetry.ts';
import { createAISDKDriver } from './hosts/ai-sdk.ts';
import { createAnthropicDriver } from './hosts/anthropic.ts';
import { createLangChainDriver } from './hosts/langchain.ts';
import { createMcpDriver } from './hosts/mcp.ts';
import { createOpenAIDriver } from './hosts/openai.ts';
import {
  type DriverContext,
  type ModelDriver,
  planningPrompt,
  runPlanningJob,
} from './planning-job.ts';
import { OBJECTIVE } from './script.ts';

/** The hosts the demo can run. */
export const HOSTS = ['openai', 'anthropic', 'ai-sdk', 'langchain', 'mcp'] as const;
export type Host = (typeof HOSTS)[number];

/** Options of {@link runDemo}. */
export interface DemoOptions {
  readonly host: Host;
  readonly print: (line: string) => void;
  /** Where the embedded store keeps sessions (`.plankit/` in the working directory by default). */
  readonly storeDirectory: string;
  /** API keys from the environment: with one, the host's live API answers. */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** With a key, where to save the live responses as a new transcript. */
  readonly record?: string | undefined;
  /** What the person answers when asked to approve. */
  readonly approvalReply?: string | undefined;
  /** Print plankit's OpenTelemetry span tree at the end (`--trace`). */
  readonly trace?: boolean | undefined;
}

const transcript = (name: string) =>
  fileURLToPath(new URL(`../transcripts/${name}`, import.meta.url));

async function createDriver(
  host: Host,
  context: DriverContext,
  options: DemoOptions,
): Promise<ModelDriver> {
  switch (host) {
    case 'openai':
      return createOpenAIDriver(context, {
        apiKey: options.env['OPENAI_API_KEY'],
        transcript: transcript('openai-chat.json'),
        record: options.record,
      });
    case 'anthropic':
      return createAnthropicDriver(context, {
        apiKey: options.env['ANTHROPIC_API_KEY'],
        transcript: transcript('anthropic-messages.json'),
        record: options.record,
      });
    case 'ai-sdk':
      return createAISDKDriver(context);
    case 'langchain':
      return createLangChainDriver(context);
    case 'mcp':
      return createMcpDriver(context);
    default: {
      const unknown: never = host;
      throw new Error(`Unknown host ${String(unknown)}`);
    }
  }
}

/**
 * Plans a release end to end through one host: the planning controller decides the stages,
 * the model edits the plan through plankit's tools, the budget meters every turn, and the
 * session (plan, tool-call log, controller and budget) is saved in the embedded file store.
 */
export async function runDemo(options: DemoOptions): Promise<void> {
  const { host, print } = options;
  const replaying =
    (host === 'openai' && !options.env['OPENAI_API_KEY']) ||
    (host === 'anthropic' && !options.env['ANTHROPIC_API_KEY']);
  const live = (host === 'openai' || host === 'anthropic') && !replaying;
  // Replays run on a fixed clock so their output is the same every time.
  let now = Date.UTC(2026, 0, 15, 9, 0, 0);
  const clock = live ? Date.now : () => now;
  const tick = () => {
    now += 1_500;
  };

  // With OTEL_EXPORTER_OTLP_ENDPOINT or --trace, an OpenTelemetry SDK records plankit's spans.
  const telemetry = await startDemoTelemetry({ env: options.env, trace: options.trace ?? false });
  try {
    const work = () => planRelease(options, clock, tick, print);
    await (telemetry === undefined ? work() : telemetry.run(work));
  } finally {
    const tree = await telemetry?.stop();
    if (telemetry !== undefined) print(`\n${telemetry.description}`);
    if (tree !== undefined) print(`\nSpan tree (--trace):\n${tree}`);
  }
}

async function planRelease(
  options: DemoOptions,
  clock: () => number,
  tick: () => void,
  print: (line: string) => void,
): Promise<void> {
  const { host } = options;
  const store = new FileStore({ directory: options.storeDirectory });
  const sessionId = `demo-${host}`;
  const removed = await store.delete(sessionId);
  if (!removed.ok) throw removed.error;
  const session = new Session({ sessionId, clock });
  const { system, planning } = planningPrompt(session, OBJECTIVE);
  const attached = await attachStore(session, store);
  if (!attached.ok) throw attached.error;

  const driver = await createDriver(
    host,
    { session, tools: planning.tools(), system, tick },
    options,
  );
  const mode = driver.live
    ? `live ${driver.model}`
    : host === 'openai' || host === 'anthropic'
      ? 'a transcript hand-written in the API wire format, replayed through the real SDK client; set an API key for the live API'
      : 'a scripted model';
  print(`plankit demo: planning "${OBJECTIVE}" through the ${host} host (${mode})`);
  if (!driver.live)
    print(
      `Offline: the token counts are ${host === 'openai' || host === 'anthropic' ? 'replayed from the transcript' : "the scripted model's"}, so the costs are what they would be at example prices and nothing is billed; the person's reply at SEEK_APPROVAL is scripted (--approve).`,
    );
  else
    print(
      `Live: the costs use example prices, not your contract's; the person's reply at SEEK_APPROVAL is scripted (--approve to change it).`,
    );
  print('');
  try {
    await runPlanningJob({
      driver,
      session,
      print,
      clock,
      approvalReply: options.approvalReply ?? 'approve',
    });
  } finally {
    await driver.close();
  }
  const detached = await attached.value.detach();
  if (!detached.ok) throw detached.error;
  const calls = selectAll(session, ToolCall).length;
  print(
    `\nSaved session ${sessionId} (${calls} tool calls, controller and budget included) in ${options.storeDirectory}, version ${detached.value}.`,
  );
}
