import { parseArgs } from 'node:util';
import { runCadences } from './run-cadences.ts';
import { runExample } from './run-example.ts';

const USAGE = `Usage: node --conditions=@plankit/source --import tsx examples/planning-controller/src/main.ts [--verbose]

  --verbose   also print the full trace, the controller's Mermaid diagram and each approval
              policy's run step by step
  -h, --help  print this help`;

let verbose = false;
try {
  const { values } = parseArgs({
    options: { verbose: { type: 'boolean', short: 'v' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help === true) {
    console.log(USAGE);
    process.exit(0);
  }
  verbose = values.verbose === true;
} catch (error) {
  console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}

const print = (line: string) => console.log(line);
runExample(print, { verbose });
print('');
print('The same plan under each approval policy:');
print('');
runCadences(print, { verbose });
if (!verbose) {
  print('');
  print('Run with --verbose for the full trace, the Mermaid diagram and each policy step by step.');
}
