import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startPlanUi } from './start-plan-ui.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5178' },
    store: { type: 'string', default: '.plankit' },
    // `--text unicode`: the tools in Unicode mode, and the agent plans in Japanese with emoji.
    text: { type: 'string', default: 'ascii' },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error('--port must be a port number (0 picks a free one)');
  process.exit(2);
}
const text = values.text;
if (text !== 'ascii' && text !== 'unicode') {
  console.error('--text must be ascii or unicode');
  process.exit(2);
}
console.log('Building the page with Vite...');
const ui = await startPlanUi({
  storeDirectory: resolve(values.store),
  port,
  stepDelayMs: 700,
  text,
});
console.log(`Plan UI: ${ui.url}  (a new conversation: ${ui.url}?chat=another; Ctrl+C stops)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void ui.close().then(() => process.exit(0)));
}
