import { runCompactionDemo } from './compaction-demo.ts';
import { runDemo } from './run-demo.ts';

const print = (line: string): void => console.log(line);
// `--compaction` runs the compaction demo of docs/plan-model.md instead of the session demo.
if (process.argv.includes('--compaction')) await runCompactionDemo(print);
else await runDemo(print);
