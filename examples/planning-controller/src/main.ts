import { runCadences } from './run-cadences.ts';
import { runExample } from './run-example.ts';

runExample((line) => console.log(line));
console.log('');
console.log('The same plan under each approval policy:');
console.log('');
runCadences((line) => console.log(line));
