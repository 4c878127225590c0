import { claudeCodeAgent } from './claude-code-agent.ts';
import { runDemo } from './run-demo.ts';

// Offline by default: a scripted agent speaks MCP to each conversation's planning server.
// `--live` with ANTHROPIC_API_KEY set runs Claude Code through query() instead (needs the
// Claude Code binary the SDK installs; never run in the tests).
const live = process.argv.includes('--live');
if (live && process.env['ANTHROPIC_API_KEY'] === undefined) {
  console.error(
    '--live runs Claude Code and needs ANTHROPIC_API_KEY: set it, or leave --live out for the offline run.',
  );
  process.exit(2);
}
const agent = claudeCodeAgent();
const { alpha, beta } = await runDemo(live ? () => agent : undefined);
for (const [chatId, reply] of [
  ['alpha', alpha],
  ['beta', beta],
] as const) {
  console.log(
    `${chatId}: ${reply.plan?.objective} (${reply.plan?.status}) after ${reply.turns} turns: ${reply.text}`,
  );
}
