import { runCodexInterop } from './codex-interop.ts';
import { runCompactionDemo } from './compaction-demo.ts';
import { runDemo } from './run-demo.ts';

const print = (line: string): void => console.log(line);
// `--compaction` runs the compaction demo of docs/plan-model.md, `--codex` the Codex plan
// round trip of docs/interop.md, instead of the session demo.
if (process.argv.includes('--compaction')) await runCompactionDemo(print);
else if (process.argv.includes('--codex')) await runCodexInterop(print);
else await runDemo(print);
