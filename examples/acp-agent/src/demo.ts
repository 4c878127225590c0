import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runACPDemo } from './run-acp-demo.ts';

// What `npm run demo -- --acp` runs: an ACP client drives the stdio agent as an editor would.
await runACPDemo({
  store: await mkdtemp(join(tmpdir(), 'plankit-acp-agent-')),
  print: (line) => console.log(line),
});
