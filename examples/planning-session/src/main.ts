import { runDemo } from './run-demo.ts';

await runDemo((line) => console.log(line));
