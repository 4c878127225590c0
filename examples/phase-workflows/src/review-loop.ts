import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openWorkspace, type Workspace } from '@plankit/adapters/workspace';
import {
  approvePlan,
  completeTodo,
  createInspectionTools,
  type PhaseJob,
  phaseJobFromJSON,
  requestChanges,
  startPhaseJob,
  withReviewFeedback,
} from '@plankit/controller/workflows';
import { invokeTool, type Result, Session } from '@plankit/core';

const START = Date.UTC(2026, 0, 15, 9, 0);
const HOUR = 3600 * 1000;

function ok<T>(result: Result<T, Error>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

/** The host stores the job as JSON and ends the request; a later process reads it back. */
async function save(workspace: Workspace, job: PhaseJob): Promise<number> {
  return ok(await workspace.writeText('.job/job.json', JSON.stringify(job))).bytes;
}

async function load(workspace: Workspace): Promise<PhaseJob> {
  const text = ok(await workspace.readText('.job/job.json'));
  if (typeof text !== 'string') throw new Error('no stored job');
  return ok(phaseJobFromJSON(text));
}

/** The agent's strategic work, scripted: it writes the plan files, then completes each todo. */
async function plan(
  workspace: Workspace,
  job: PhaseJob,
  now: number,
  todos: readonly string[],
): Promise<PhaseJob> {
  ok(
    await workspace.writeText(
      'main_plan.md',
      `# Plan\n\n${todos.map((todo, i) => `${i + 1}. ${todo}`).join('\n')}\n`,
    ),
  );
  ok(
    await workspace.writeTodos({
      phase: 'Phase 1: Extract',
      todos: todos.map((content, i) => ({ id: i + 1, content })),
    }),
  );
  let next = job;
  for (const todo of job.todos) {
    const source = ok(await workspace.readTodos());
    next = ok(completeTodo(next, { id: todo.id, now, todos: source }));
  }
  return next;
}

const FIRST = [
  'Extract the PDF text',
  'Find the GoBD sections',
  'Extract the requirements',
  'Validate them',
  'Report',
];
const REVISIONS = [
  [
    'Extract the PDF text',
    'Find the GoBD sections',
    'Extract retention requirements',
    'Extract logging requirements',
    'Validate them',
    'Report',
  ],
  [
    'Extract the PDF text (owner: Ana)',
    'Find the GoBD sections (owner: Ana)',
    'Extract retention requirements (owner: Ben)',
    'Extract logging requirements (owner: Ben)',
    'Validate them (owner: Ana)',
    'Report (owner: Ben)',
  ],
];
const FEEDBACK = [
  'Split the extraction into retention and logging.',
  'Name an owner for every todo.',
];

/**
 * Runs the review loop: an interactive job plans, waits in `pending_review`, gets two
 * rounds of feedback (written into workspace.md and sent to the agent) and is approved into
 * its first tactical phase. Between every step the job is stored as JSON and read back, as
 * separate processes would. A review companion inspects the job with the read-only tools.
 */
export async function runReviewLoop(
  root: string,
  print: (line: string) => void,
): Promise<PhaseJob> {
  const workspace = ok(await openWorkspace(root, { create: true }));
  let now = START;
  ok(await workspace.writeMemory('# Workspace\n\nInput: docs/gobd.pdf.\n'));
  let job = startPhaseJob({ jobId: 'job-7', now, interactive: true, reviewLimit: 2 });
  job = await plan(workspace, job, now, FIRST);
  print(
    `strategic phase 1 done: ${job.machine.state}, ${job.handoff?.todos.length} todos wait for review`,
  );
  print(`stored ${await save(workspace, job)} bytes of JSON; the process exits`);

  // The review companion chat reads the frozen job and its workspace, and changes nothing.
  const companion = createInspectionTools({ job: () => load(workspace), files: workspace });
  const chat = new Session({ sessionId: 'review-chat', clock: () => now });
  for (const [name, args] of [
    ['get_job', {}],
    ['get_todos', {}],
  ] as const) {
    const tool = companion.find((t) => t.name === name);
    if (tool === undefined) throw new Error(name);
    const answer = await invokeTool(tool, args, { session: chat });
    print(`companion ${name}: ${answer.message}`);
  }

  for (const [index, feedback] of FEEDBACK.entries()) {
    now += 6 * HOUR;
    job = ok(requestChanges(await load(workspace), { now, feedback }));
    for (const signal of job.signals) {
      switch (signal.type) {
        case 'review_feedback': {
          // Both ways: the memory (survives compaction) and the first message (read at once).
          const memory = ok(await workspace.readMemory());
          ok(await workspace.writeMemory(withReviewFeedback(memory, signal)));
          print(
            `changes requested (cycle ${signal.cycle}); first message: ${signal.message.split('\n')[0]}`,
          );
          break;
        }
        case 'review_limit_reached':
          print(
            `soft limit reached (${signal.cycles} of ${signal.limit} cycles): offer approval or skipReview`,
          );
          break;
        case 'phase_started':
          print(
            `${signal.phase} phase ${signal.phaseNumber} (${signal.kind}) starts with a fresh history`,
          );
          break;
        // The hand-off consumed todos.yaml: archive it, so the revision must write its own.
        case 'todos_consumed':
          ok(await workspace.consumeTodos(signal));
          break;
        case 'history_reset':
        case 'handoff_rejected':
        case 'phase_archived':
        case 'review_pending':
        case 'job_completed':
          break;
        default: {
          const unknown: never = signal;
          throw new Error(`unknown signal ${String(unknown)}`);
        }
      }
    }
    await save(workspace, job);
    now += HOUR;
    job = await plan(workspace, await load(workspace), now, REVISIONS[index] ?? []);
    print(
      `revision done: ${job.machine.state}, ${job.handoff?.todos.length} todos wait for review`,
    );
    await save(workspace, job);
  }

  now += 6 * HOUR;
  job = ok(approvePlan(await load(workspace), { now, reason: 'approved by Dana' }));
  await save(workspace, job);
  job = await load(workspace);
  print(
    `approved: ${job.phase} phase ${job.phaseNumber} runs "${job.title}" with ${job.todos.length} todos`,
  );
  print('');
  print('Trace:');
  for (const entry of job.machine.trace) {
    print(
      `  run ${entry.run} ${entry.from} --${entry.outcome}--> ${entry.to}${entry.reason === null ? '' : `: ${entry.reason}`}`,
    );
  }
  print('');
  print('workspace.md:');
  print(ok(await workspace.readMemory()).trimEnd());
  return job;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = await mkdtemp(path.join(os.tmpdir(), 'plankit-review-'));
  try {
    await runReviewLoop(root, (line) => console.log(line));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
