import { join, resolve } from 'node:path';
import { DEMO_USAGE, parseDemoArgs } from './demo-args.ts';
import { runDemo } from './run-demo.ts';

const command = parseDemoArgs(process.argv.slice(2), process.env);
switch (command.kind) {
  case 'help':
    console.log(command.text);
    break;
  case 'error':
    console.error(`${command.message}\n\n${DEMO_USAGE}`);
    process.exitCode = 2;
    break;
  case 'run':
    await runDemo({
      host: command.host,
      print: (line) => console.log(line),
      storeDirectory: resolve(command.store),
      env: process.env,
      record: command.record,
      approvalReply: command.approve,
      trace: command.trace,
    });
    break;
  case 'ui': {
    // Loaded only here, so the demo's other runs do not load Vite.
    const { startPlanUi } = await import('../../plan-ui/src/start-plan-ui.ts');
    console.log('Building the plan UI page with Vite...');
    const ui = await startPlanUi({
      storeDirectory: resolve(command.store),
      port: command.port,
      stepDelayMs: 700,
    });
    console.log(`Plan UI: ${ui.url}  (another conversation: ${ui.url}?chat=second; Ctrl+C stops)`);
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.once(signal, () => void ui.close().then(() => process.exit(0)));
    break;
  }
  case 'acp': {
    // Loaded only here, so the demo's other runs do not load the ACP SDK.
    const { runACPDemo } = await import('../../acp-agent/src/run-acp-demo.ts');
    await runACPDemo({
      store: join(resolve(command.store), 'acp-agent'),
      print: (line) => console.log(line),
    });
    break;
  }
  default: {
    const unknown: never = command;
    throw new Error(`Unknown command ${String(unknown)}`);
  }
}
