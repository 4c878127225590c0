import { resolve } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { ndJsonStream } from '@agentclientprotocol/sdk';
import Anthropic from '@anthropic-ai/sdk';
import { createSessionPool } from '@plankit/adapters/sessions';
import { FileStore } from '@plankit/adapters/stores';
import { createPlanningTools, Session } from '@plankit/core';
import { createClaudeModel } from './claude-model.ts';
import { createACPAgent } from './create-acp-agent.ts';
import { createScriptedModel } from './scripted-model.ts';

// An ACP agent over stdio: stdout carries the protocol, so everything else goes to stderr.
const { values } = parseArgs({ options: { store: { type: 'string' } } });
const directory = resolve(values.store ?? '.plankit/acp-agent');
const pool = createSessionPool({
  store: new FileStore({ directory }),
  onError: (error) => console.error(`plankit-acp-agent: ${error.message}`),
});
// The tools run on the session each call resolves to; this one only defines them.
const tools = createPlanningTools(new Session(), { text: 'unicode' });
const key = process.env['ANTHROPIC_API_KEY'] ?? '';
const model =
  key === ''
    ? createScriptedModel()
    : createClaudeModel(
        new Anthropic({ apiKey: key }),
        tools,
        process.env['PLANKIT_ACP_MODEL'] ?? 'claude-sonnet-5-5',
      );
console.error(
  `plankit-acp-agent: ${key === '' ? 'scripted model' : 'Claude'}, plans in ${directory}`,
);

const agent = createACPAgent({ pool, tools, model });
const stream = ndJsonStream(
  Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
  Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
);
const connection = agent.app.connect(stream);
// The client closing stdin ends the connection, which aborts any turn; save and leave.
await connection.closed;
await agent.idle();
await pool.close();
process.exit(0);
