import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openWorkspace, type Workspace } from '@plankit/adapters/workspace';
import {
  compactionSignal,
  createPhaseTools,
  PhaseJob,
  type PhaseToolConfig,
  phasePrompt,
  selectPhaseTools,
  startPhaseJob,
} from '@plankit/controller/workflows';
import { type AnyTool, defineTool, invokeTool, Session, selectLatest } from '@plankit/core';
import * as z from 'zod';

const START = Date.UTC(2026, 0, 15, 9, 0);

// The job's tool configuration: categories of tool names.
const CONFIG: PhaseToolConfig = {
  workspace: ['write_file'],
  strategic: ['todo_write', 'job_complete'],
  tactical: ['todo_complete'],
  domain: ['extract_requirements'],
};

/** The host's own tools: a workspace tool and a domain tool, over the job's workspace. */
function hostTools(workspace: Workspace): AnyTool[] {
  const writeFile = defineTool({
    name: 'write_file',
    description: 'Write a file of the workspace.',
    parameters: z.strictObject({ path: z.string(), content: z.string() }),
    handler: async ({ path: file, content }) => {
      const written = await workspace.writeText(file, content);
      if (!written.ok) throw written.error;
      return { message: `Wrote ${written.value.bytes} bytes to ${file}.`, value: null };
    },
  });
  const extract = defineTool({
    name: 'extract_requirements',
    description: 'Extract the requirements of one section of the input document.',
    parameters: z.strictObject({ section: z.number().int() }),
    handler: ({ section }) => ({ message: `Section ${section}: 3 requirements.`, value: null }),
  });
  return [writeFile, extract];
}

/** What the scripted agent does, call by call. */
type Call = readonly [tool: string, args: Record<string, unknown>];

const TODOS = [
  'Extract text from the uploaded PDF document',
  'Identify sections related to GoBD compliance',
  'Extract individual requirements from each section',
  'Validate extracted requirements against known patterns',
  'Write requirements to the database using add_requirement tool',
  'Summarise the requirements in requirements.md',
].map((content, i) => ({ id: i + 1, content }));

const SHORT_TODOS = `phase: "Phase 1"\ntodos:\n${TODOS.slice(0, 4)
  .map((todo) => `  - id: ${todo.id}\n    content: ${todo.content}`)
  .join('\n')}\n`;

const SCRIPT: Record<string, readonly Call[]> = {
  'strategic 1': [
    [
      'write_file',
      { path: 'workspace.md', content: '# Workspace\n\nInput: docs/gobd.pdf (42 pages).\n' },
    ],
    ['todo_complete', { id: 1 }],
    [
      'write_file',
      { path: 'main_plan.md', content: '# Plan\n\n1. Extract the requirements.\n2. Report.\n' },
    ],
    ['todo_complete', { id: 2 }],
    ['todo_complete', { id: 3 }],
    // Four todos, written by hand: the hand-off is rejected.
    ['write_file', { path: 'todos.yaml', content: SHORT_TODOS }],
    ['todo_complete', { id: 4 }],
    ['todo_write', { phase: 'Phase 1: Extract requirements from document', todos: TODOS }],
    ['todo_complete', { id: 4 }],
  ],
  'tactical 2': [
    ['job_complete', { summary: 'Done early?' }],
    ['extract_requirements', { section: 3 }],
    ...TODOS.map((todo): Call => ['todo_complete', { id: todo.id }]),
  ],
  'strategic 3': [
    ['todo_complete', { id: 1 }],
    [
      'write_file',
      {
        path: 'workspace.md',
        content:
          '# Workspace\n\nInput: docs/gobd.pdf.\n\n## Learnings\n\n- Section 3 holds the retention rules.\n',
      },
    ],
    ['todo_complete', { id: 2 }],
    ['todo_complete', { id: 3 }],
    ['job_complete', { summary: 'All GoBD requirements extracted and validated.' }],
  ],
};

/**
 * Runs the phase alternation end to end with a scripted agent: strategic phase 1 with a
 * rejected hand-off the agent fixes, tactical phase 2 (where `job_complete` is refused), the
 * archive, strategic phase 3 and `job_complete`. The host clears its message history on every
 * phase change and builds each phase's prompt and tool set. Every line goes to `print`.
 */
export async function runPhaseAlternation(
  root: string,
  print: (line: string) => void,
): Promise<PhaseJob> {
  const opened = await openWorkspace(root, { create: true });
  if (!opened.ok) throw opened.error;
  const workspace = opened.value;
  let now = START;
  const session = new Session({ sessionId: 'job-42', clock: () => now });
  const tools = [...createPhaseTools(session, { files: workspace }), ...hostTools(workspace)];
  session.dispatch(PhaseJob, startPhaseJob({ jobId: 'job-42', now }));
  let messages: string[] = [];

  const job = (): PhaseJob => selectLatest(session, PhaseJob) as PhaseJob;
  const startPhase = async () => {
    const current = job();
    const memory = await workspace.readMemory();
    if (!memory.ok) throw memory.error;
    const prompt = phasePrompt(current, { workspaceMemory: memory.value });
    const offered = selectPhaseTools(tools, CONFIG, current.phase).map((tool) => tool.name);
    print(`== ${current.phase} phase ${current.phaseNumber} (${current.phaseKind})`);
    print(`   prompt: ${prompt.split('\n')[2]}`);
    print(`   tools: ${offered.join(', ')}`);
    print(`   todos: ${current.todos.map((todo) => todo.id).join(', ')}`);
  };

  await startPhase();
  while (job().machine.status !== 'done') {
    const key = `${job().phase} ${job().phaseNumber}`;
    const calls = SCRIPT[key];
    if (calls === undefined) throw new Error(`the script has no calls for ${key}`);
    for (const [name, args] of calls) {
      now += 60_000;
      const offered = selectPhaseTools(tools, CONFIG, job().phase);
      // A model may still call a tool it was not offered (from memory of an earlier phase, or
      // made up); the host passes the call on, and the phase tools refuse it themselves.
      const tool = offered.find((t) => t.name === name) ?? tools.find((t) => t.name === name);
      if (tool === undefined) throw new Error(`no tool ${name}`);
      const before = job();
      const result = await invokeTool(tool, args, { session });
      messages.push(`${name} ${JSON.stringify(args)}`, result.message);
      const json = JSON.stringify(args);
      // Long arguments (file contents) are cut, and the cut is marked.
      const shown = json.length > 60 ? `${json.slice(0, 59)}…` : json;
      print(`   ${name}(${shown}) -> ${result.message}`);
      if (name === 'extract_requirements') {
        // The conversation grew: past 80,000 tokens the host compacts, keeping the plan anchor.
        const due = compactionSignal(job(), { contextTokens: 83_500 });
        if (due !== null)
          print(
            `   compaction due (${due.contextTokens} > ${due.threshold}); anchor: ${due.anchor.split('\n')[0]}`,
          );
      }
      // A new job is a new step: act on what it signals, in order.
      const after = job();
      const signals = after === before ? [] : after.signals;
      for (const signal of signals) {
        switch (signal.type) {
          case 'history_reset':
            print(`   history cleared (${messages.length} messages)`);
            messages = [];
            break;
          case 'phase_archived':
            print(`   archived to ${signal.path}`);
            break;
          // The phase tools already moved todos.yaml, so a later phase must write its own.
          case 'todos_consumed':
            print(`   todos.yaml consumed: ${signal.archivePath ?? 'removed'}`);
            break;
          case 'phase_started':
            await startPhase();
            break;
          case 'job_completed':
            print(`== job complete: ${signal.summary}`);
            break;
          // The tool message already told the agent why; the job is not interactive.
          case 'handoff_rejected':
          case 'review_pending':
          case 'review_feedback':
          case 'review_limit_reached':
            break;
          default: {
            const unknown: never = signal;
            throw new Error(`unknown signal ${String(unknown)}`);
          }
        }
      }
      if (
        signals.some((signal) => signal.type === 'phase_started' || signal.type === 'job_completed')
      )
        break;
    }
  }

  const final = job();
  print('');
  print('Trace:');
  for (const entry of final.machine.trace) {
    print(
      `  ${entry.from} --${entry.outcome}--> ${entry.to}${entry.reason === null ? '' : `: ${entry.reason}`}`,
    );
  }
  const archive = await workspace.readText('archive/phase_2.yaml');
  print('');
  print('archive/phase_2.yaml:');
  print(String(archive.ok && archive.value).trimEnd());
  return final;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = await mkdtemp(path.join(os.tmpdir(), 'plankit-phases-'));
  try {
    await runPhaseAlternation(root, (line) => console.log(line));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
