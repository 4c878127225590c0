import type { CheckVerdict, EvalTask } from '@plankit/eval';

const COMMITS = 'feat: add login\nfix: crash on save\nfeat: dark mode\nfix: typo in footer\n';

function sectionItems(text: string, heading: string): string[] {
  const start = text.indexOf(`## ${heading}`);
  if (start === -1) return [];
  const rest = text.slice(start + heading.length + 3);
  const end = rest.indexOf('## ');
  return (end === -1 ? rest : rest.slice(0, end))
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2).trim());
}

function same(actual: readonly string[], expected: readonly string[]): boolean {
  return actual.length === expected.length && actual.every((item, i) => item === expected[i]);
}

function fail(reason: string): CheckVerdict {
  return { pass: false, reason };
}

/**
 * The example task set: three small file tasks, each with a deterministic checker of the final
 * workspace, its success criteria in words (a goal arm's goal criteria), and the files that
 * solve each (which the scripted models use).
 */
export const exampleTasks: readonly (EvalTask & {
  readonly solution: Readonly<Record<string, string>>;
})[] = [
  {
    id: 'release-notes',
    prompt:
      "Read commits.txt and write RELEASE.md with a '## Features' section listing each feat commit and a '## Fixes' section listing each fix commit, as '- ' bullets without the prefix, in commit order.",
    criteria:
      'RELEASE.md lists the two feat commits under Features and the two fix commits under Fixes, in commit order.',
    fixtures: { 'commits.txt': COMMITS },
    solution: {
      'RELEASE.md':
        '## Features\n\n- add login\n- dark mode\n\n## Fixes\n\n- crash on save\n- typo in footer\n',
    },
    check: ({ files }) => {
      const text = files.get('RELEASE.md');
      if (text === undefined) return fail('RELEASE.md is missing.');
      if (!same(sectionItems(text, 'Features'), ['add login', 'dark mode']))
        return fail('The Features section does not list the two feat commits in order.');
      if (!same(sectionItems(text, 'Fixes'), ['crash on save', 'typo in footer']))
        return fail('The Fixes section does not list the two fix commits in order.');
      return { pass: true, reason: 'Both sections list the right commits.' };
    },
  },
  {
    id: 'config-split',
    prompt:
      'Write config/dev.json with {"debug": true, "port": 3000} and config/prod.json with {"debug": false, "port": 80}.',
    criteria: 'Both files parse as JSON and hold exactly those debug and port values.',
    solution: {
      'config/dev.json': '{ "debug": true, "port": 3000 }\n',
      'config/prod.json': '{ "debug": false, "port": 80 }\n',
    },
    check: ({ files }) => {
      const expected: Record<string, { debug: boolean; port: number }> = {
        'config/dev.json': { debug: true, port: 3000 },
        'config/prod.json': { debug: false, port: 80 },
      };
      for (const [path, want] of Object.entries(expected)) {
        const text = files.get(path);
        if (text === undefined) return fail(`${path} is missing.`);
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          return fail(`${path} is not JSON.`);
        }
        const got = value as { debug?: unknown; port?: unknown };
        if (got.debug !== want.debug || got.port !== want.port)
          return fail(`${path} does not hold ${JSON.stringify(want)}.`);
      }
      return { pass: true, reason: 'Both config files hold the right values.' };
    },
  },
  {
    id: 'todo-index',
    prompt:
      "List every TODO comment of src/a.ts and src/b.ts in TODO.md, one '- <file>: <text>' line each, sorted by file, then write DONE.txt containing the number of TODOs.",
    criteria: 'TODO.md lists the three TODOs in file order and DONE.txt says 3.',
    fixtures: {
      'src/a.ts': 'export const a = 1; // TODO: rename a\n',
      'src/b.ts': '// TODO: test b\nexport const b = 2; // TODO: remove b\n',
    },
    solution: {
      'TODO.md': '- src/a.ts: rename a\n- src/b.ts: test b\n- src/b.ts: remove b\n',
      'DONE.txt': '3\n',
    },
    check: ({ files }) => {
      const lines = (files.get('TODO.md') ?? '').split('\n').filter((line) => line.length > 0);
      const expected = ['- src/a.ts: rename a', '- src/b.ts: test b', '- src/b.ts: remove b'];
      if (!same(lines, expected)) return fail('TODO.md does not list the three TODOs in order.');
      if ((files.get('DONE.txt') ?? '').trim() !== '3') return fail('DONE.txt does not say 3.');
      return { pass: true, reason: 'TODO.md and DONE.txt are right.' };
    },
  },
];

/** The solving files of the task with this prompt, for the scripted models. */
export function solve(prompt: string): Readonly<Record<string, string>> | undefined {
  return exampleTasks.find((task) => task.prompt === prompt)?.solution;
}
