import { resolve } from 'node:path';
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
    });
    break;
  default: {
    const unknown: never = command;
    throw new Error(`Unknown command ${String(unknown)}`);
  }
}
