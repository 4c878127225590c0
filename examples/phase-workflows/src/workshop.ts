import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openWorkspace, type Workspace } from '@plankit/adapters/workspace';
import {
  type RoundEntry,
  type RoundSignals,
  redoWorkshop,
  startWorkshop,
  type WorkshopState,
  workshopFromJSON,
  workshopRound,
  writeArtifact,
} from '@plankit/controller/workflows';
import type { Result } from '@plankit/core';

const START = Date.UTC(2026, 0, 15, 9, 0);

function ok<T>(result: Result<T, Error>): T {
  if (!result.ok) throw result.error;
  return result.value;
}

const PLAN = {
  title: 'Add SSO to the admin console',
  summary: 'OIDC against the company identity provider; password login goes away.',
  tasks: [
    {
      id: 'T1',
      title: 'Add the OIDC client',
      subtasks: [{ id: 'T1.1', title: 'Store the client secret in the vault' }],
      acceptance: ['Admins sign in through the provider'],
      files: ['src/auth/oidc.ts'],
    },
    { id: 'T2', title: 'Remove password login', files: ['src/auth/password.ts'] },
  ],
  risks: ['Lockout while the provider is down'],
};

// The first file plan forgets T2's file: formalizing is blocked until it is fixed.
const FILES_MISSING = {
  files: [{ path: 'src/auth/oidc.ts', action: 'create', tasks: ['T1', 'T1.1'] }],
};
const FILES = {
  files: [
    ...FILES_MISSING.files,
    { path: 'src/auth/password.ts', action: 'delete', tasks: ['T2'] },
  ],
};

type Step =
  | { readonly round: readonly RoundEntry[]; readonly signals?: RoundSignals }
  | { readonly write: string; readonly content: unknown };

const SCRIPT: readonly Step[] = [
  {
    round: [{ actor: 'planner', content: 'Which identity provider, and may password login stay?' }],
  },
  {
    round: [
      { actor: 'user', content: 'Okta. I will check about passwords.' },
      { actor: 'planner', content: 'Password login is still open.' },
    ],
    signals: { blocking_questions: true },
  },
  { round: [{ actor: 'user', content: 'Passwords go away.' }] },
  {
    round: [{ actor: 'planner', content: 'Tasks: OIDC client, remove passwords. Risk: lockout.' }],
  },
  {
    round: [{ actor: 'critic', content: 'Nothing to add; the structure holds.' }],
    signals: { commitment_readiness: true },
  },
  { write: 'planning.ai.json', content: PLAN },
  { write: 'plan.files.json', content: FILES_MISSING },
  { round: [{ actor: 'planner', content: 'Compiled the plan and the file plan.' }] },
  { write: 'plan.files.json', content: FILES },
  {
    round: [{ actor: 'planner', content: 'Fixed the file plan.' }],
    signals: { file_plan_consistency: true },
  },
];

/**
 * Saves a step: the round's new transcript entries, the artifacts, and the state as JSON, read
 * back as the next process would.
 */
async function persist(
  workspace: Workspace,
  before: WorkshopState,
  after: WorkshopState,
): Promise<WorkshopState> {
  const added = after.transcript.slice(before.transcript.length);
  if (added.length > 0) ok(await workspace.appendMeeting(added));
  // Each attempt writes its artifacts to its own folder, so a redo leaves the last one intact.
  for (const artifact of after.artifacts) {
    ok(
      await workspace.writeText(
        `planning/attempt_${after.attempt}/${artifact.name}`,
        artifact.content,
      ),
    );
  }
  ok(await workspace.writeText('planning/workshop.json', JSON.stringify(after)));
  const text = ok(await workspace.readText('planning/workshop.json'));
  return ok(workshopFromJSON(text));
}

/**
 * Runs the planning workshop: draft, clarifying (a blocking question, then answers), two
 * workshop rounds, formalizing blocked by an inconsistent file plan, then review_ready; then
 * `/redo planning`, which snapshots the artifacts and restarts at draft with the transcript
 * intact. The transcript goes to `planning/meeting.jsonl`, one fsynced line per entry.
 */
export async function runWorkshop(
  root: string,
  print: (line: string) => void,
): Promise<WorkshopState> {
  const workspace = ok(await openWorkspace(root, { create: true }));
  let now = START;
  let state = startWorkshop({ now, brief: 'Add SSO to the admin console.' });
  print(`${state.machine.state}: ${state.brief}`);
  for (const step of SCRIPT) {
    now += 60_000;
    const before = state;
    if ('round' in step) {
      state = ok(workshopRound(state, { now, entries: step.round, signals: step.signals }));
      const last = state.machine.trace.at(-1);
      print(
        `round ${state.round}: ${last?.from} --${last?.outcome}--> ${last?.to} (${last?.reason})`,
      );
    } else {
      state = ok(
        writeArtifact(state, { now, name: step.write, content: JSON.stringify(step.content) }),
      );
      print(
        `wrote ${step.write}; artifacts: ${state.artifacts.map((artifact) => artifact.name).join(', ')}`,
      );
    }
    state = await persist(workspace, before, state);
  }
  print('');
  print('plan.md (rendered from planning.ai.json):');
  print(String(ok(await workspace.readText('planning/attempt_1/plan.md'))).trimEnd());
  print('');

  now += 3_600_000;
  const before = state;
  state = ok(redoWorkshop(state, { now, reason: 'SCIM provisioning is in scope now.' }));
  const kept = state.redos.at(-1);
  state = await persist(workspace, before, state);
  print(
    `redo: attempt ${state.attempt} starts in ${state.machine.state}; attempt ${kept?.attempt} kept ${kept?.artifacts.length} artifacts from ${kept?.stage}`,
  );
  now += 60_000;
  state = await persist(
    workspace,
    state,
    ok(
      workshopRound(state, {
        now,
        entries: [{ actor: 'planner', content: 'Which SCIM attributes?' }],
      }),
    ),
  );
  const meeting = ok(await workspace.readMeeting());
  print(
    `transcript: ${state.transcript.length} entries in the state, ${meeting.entries.length} in planning/meeting.jsonl`,
  );
  for (const entry of meeting.entries)
    print(`  ${entry.round} ${entry.phase} ${entry.actor}: ${entry.content}`);
  return state;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = await mkdtemp(path.join(os.tmpdir(), 'plankit-workshop-'));
  try {
    await runWorkshop(root, (line) => console.log(line));
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
