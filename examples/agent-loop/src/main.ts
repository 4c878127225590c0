import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { HOSTS, type Host, runDemo } from './run-demo.ts';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: 'openai' },
    record: { type: 'string' },
    store: { type: 'string', default: '.plankit' },
    approve: { type: 'string', default: 'approve' },
  },
});
const host = values.host as Host;
if (!HOSTS.includes(host)) {
  console.error(`--host must be one of ${HOSTS.join(', ')}`);
  process.exit(2);
}
await runDemo({
  host,
  print: (line) => console.log(line),
  storeDirectory: resolve(values.store),
  env: process.env,
  record: values.record,
  approvalReply: values.approve,
});
