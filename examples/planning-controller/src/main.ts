import { runExample } from './run-example.ts';

runExample((line) => console.log(line));
