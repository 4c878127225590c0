import { runDemo } from './run-demo.ts';

const { alpha, beta } = await runDemo();
for (const [chatId, reply] of [
  ['alpha', alpha],
  ['beta', beta],
] as const) {
  console.log(
    `${chatId}: ${reply.plan?.objective} (${reply.plan?.status}) after ${reply.turns} turns: ${reply.text}`,
  );
}
