import { parseArgs } from 'node:util';
import { parseApprovalReply } from '@plankit/controller';
import { HOSTS, type Host } from './run-demo.ts';

/** What the command line asks the demo to do. */
export type DemoCommand =
  | {
      readonly kind: 'run';
      readonly host: Host;
      readonly record: string | undefined;
      readonly store: string;
      readonly approve: string;
      readonly trace: boolean;
    }
  | { readonly kind: 'ui'; readonly store: string; readonly port: number }
  | { readonly kind: 'acp'; readonly store: string }
  | { readonly kind: 'help'; readonly text: string }
  | { readonly kind: 'error'; readonly message: string };

/** The demo's usage text, printed by `--help` and after a bad option. */
export const DEMO_USAGE: string = `Usage: npm run demo -- [options]

Plans a release end to end through one host: prompt, model, tool calls, controller, budget.
Without an API key, OpenAI and Anthropic replay a recorded transcript through the real SDK
client, and the other hosts use a scripted model: token counts come from the replay, costs
are computed at example prices, and nothing is billed.

Options:
  --host <name>      ${HOSTS.join(', ')} (default: openai)
  --approve <text>   the scripted person's reply at SEEK_APPROVAL (default: approve); only a
                     live run takes another reply, such as "propose changes: ..."
  --store <dir>      where the embedded file store saves the session (default: .plankit)
  --record <file>    with an API key, save the live responses as a new transcript
  --trace            print plankit's OpenTelemetry span tree at the end
  --ui               serve the plan UI instead (examples/plan-ui): a chat page whose plan
                     checklist updates live as a scripted agent works; prints the URL
  --port <n>         the plan UI's port (default 5178; 0 picks a free one); with --ui only
  --acp              run the Agent Client Protocol agent (examples/acp-agent) over stdio,
                     driven by a scripted editor that prints each plan update, restarts the
                     agent and loads the session; prints the launch line for Zed
  -h, --help         print this help

Environment: OPENAI_API_KEY or ANTHROPIC_API_KEY makes that host's live API answer.
OTEL_EXPORTER_OTLP_ENDPOINT exports plankit's spans over OTLP/HTTP (OTEL_EXPORTER_OTLP_PROTOCOL:
http/protobuf, the default, or http/json); OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true
adds the tool arguments, results and plan text to them.`;

/**
 * Reads the demo's command line; never throws and never exits, so it can be tested. `env` says
 * which hosts have a key: without one the model is replayed, and the replay covers an approval
 * only, so any other `--approve` reply is refused up front rather than failing mid-run, and
 * `--record`, which has no live responses to save, is refused rather than writing no file.
 */
export function parseDemoArgs(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): DemoCommand {
  let values: {
    host?: string | undefined;
    record?: string | undefined;
    store?: string | undefined;
    approve?: string | undefined;
    ui?: boolean | undefined;
    trace?: boolean | undefined;
    acp?: boolean | undefined;
    port?: string | undefined;
    help?: boolean | undefined;
  };
  try {
    ({ values } = parseArgs({
      args: [...args],
      options: {
        host: { type: 'string' },
        record: { type: 'string' },
        store: { type: 'string' },
        approve: { type: 'string' },
        ui: { type: 'boolean' },
        trace: { type: 'boolean' },
        acp: { type: 'boolean' },
        port: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // parseArgs names the option in its message; the code alone would not help a reader.
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'error', message };
  }
  if (values.help === true) return { kind: 'help', text: DEMO_USAGE };
  if (values.acp === true) {
    const others = [
      values.host,
      values.approve,
      values.record,
      values.port,
      values.ui,
      values.trace,
    ];
    if (others.some((value) => value !== undefined))
      return {
        kind: 'error',
        message: '--acp runs the ACP agent with its own scripted editor; it takes --store only',
      };
    return { kind: 'acp', store: values.store ?? '.plankit' };
  }
  if (values.ui === true) {
    if (
      values.host !== undefined ||
      values.approve !== undefined ||
      values.record !== undefined ||
      values.trace !== undefined
    )
      return {
        kind: 'error',
        message:
          '--ui serves the plan UI with its own scripted agent; it takes --store and --port only',
      };
    const port = Number(values.port ?? '5178');
    if (!/^\d{1,5}$/.test(values.port ?? '5178') || port > 65_535)
      return { kind: 'error', message: '--port must be a port number, 0-65535' };
    return { kind: 'ui', store: values.store ?? '.plankit', port };
  }
  if (values.port !== undefined) return { kind: 'error', message: '--port goes with --ui' };
  const host = values.host ?? 'openai';
  if (!isHost(host)) return { kind: 'error', message: `--host must be one of ${HOSTS.join(', ')}` };
  const approve = values.approve ?? 'approve';
  const key =
    host === 'openai' ? 'OPENAI_API_KEY' : host === 'anthropic' ? 'ANTHROPIC_API_KEY' : null;
  const live = key !== null && (env[key] ?? '') !== '';
  // Offline there are no live responses to save: say so rather than write no file.
  if (!live && values.record !== undefined)
    return {
      kind: 'error',
      message: `--record saves the live API's responses; ${key === null ? `the ${host} host is always scripted, so there is nothing to record` : `set ${key} for the live API`}, or leave --record out.`,
    };
  if (!live && parseApprovalReply(approve).outcome !== 'approved')
    return {
      kind: 'error',
      message: `--approve ${JSON.stringify(approve)}: the offline replay has no model turns after anything but an approval; ${key === null ? `the ${host} host is always scripted` : `set ${key} for the live API`}, or leave --approve out.`,
    };
  return {
    kind: 'run',
    host,
    record: values.record,
    store: values.store ?? '.plankit',
    approve,
    trace: values.trace === true,
  };
}

function isHost(name: string): name is Host {
  return (HOSTS as readonly string[]).includes(name);
}
