import { parseArgs } from 'node:util';
import { HOSTS, type Host } from './run-demo.ts';

/** What the command line asks the demo to do. */
export type DemoCommand =
  | {
      readonly kind: 'run';
      readonly host: Host;
      readonly record: string | undefined;
      readonly store: string;
      readonly approve: string;
    }
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
  --approve <text>   the scripted person's reply at SEEK_APPROVAL (default: approve); a live
                     run also takes "propose changes: ...", which the offline replay cannot
  --store <dir>      where the embedded file store saves the session (default: .plankit)
  --record <file>    with an API key, save the live responses as a new transcript
  -h, --help         print this help

Environment: OPENAI_API_KEY or ANTHROPIC_API_KEY makes that host's live API answer.`;

/** Reads the demo's command line; never throws and never exits, so it can be tested. */
export function parseDemoArgs(args: readonly string[]): DemoCommand {
  let values: {
    host?: string | undefined;
    record?: string | undefined;
    store?: string | undefined;
    approve?: string | undefined;
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
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    // parseArgs names the option in its message; the code alone would not help a reader.
    const message = error instanceof Error ? error.message : String(error);
    return { kind: 'error', message };
  }
  if (values.help === true) return { kind: 'help', text: DEMO_USAGE };
  const host = values.host ?? 'openai';
  if (!isHost(host)) return { kind: 'error', message: `--host must be one of ${HOSTS.join(', ')}` };
  return {
    kind: 'run',
    host,
    record: values.record,
    store: values.store ?? '.plankit',
    approve: values.approve ?? 'approve',
  };
}

function isHost(name: string): name is Host {
  return (HOSTS as readonly string[]).includes(name);
}
