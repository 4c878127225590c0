import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineProject, type TestProjectInlineConfiguration } from 'vitest/config';

// Tests run on the TypeScript sources through the repo-internal export condition.
const source = { conditions: ['@plankit/source'] };

// Tests wait on events, never on the clock, so a timeout only stops a test that hangs. It is
// generous so that a test of a few seconds on an idle machine still passes on a busy one.
const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };

const TEST_FILE = /\.test\.tsx?$/;

// A test file that swaps a module (`vi.mock`), stubs a global or the environment, or picks its
// own environment changes what the next file would import or see: it runs in a fresh worker.
const NEEDS_ISOLATION =
  /\bvi\.(?:mock|doMock|unmock|doUnmock|stubGlobal|stubEnv|resetModules)\(|@vitest-environment/;

/**
 * The test files that need a fresh worker in the `src` folder of each of `dirs` (relative to
 * the repository), as paths relative to `root`.
 */
function isolatedFiles(root: string, dirs: readonly string[]): string[] {
  const found: string[] = [];
  for (const dir of dirs) {
    const src = join(import.meta.dirname, root, dir, 'src');
    for (const file of readdirSync(src, { recursive: true, encoding: 'utf8' })) {
      if (TEST_FILE.test(file) && NEEDS_ISOLATION.test(readFileSync(join(src, file), 'utf8')))
        found.push(join(dir, 'src', file).split('\\').join('/'));
    }
  }
  return found.sort();
}

function packageProject(
  name: string,
  test: { include: string[]; exclude?: string[]; isolate: boolean; suffix?: string },
): TestProjectInlineConfiguration {
  return defineProject({
    resolve: source,
    ssr: { resolve: source },
    test: {
      name: `${name}${test.suffix ?? ''}`,
      ...timeouts,
      root: `./packages/${name}`,
      include: test.include,
      ...(test.exclude === undefined ? {} : { exclude: test.exclude }),
      isolate: test.isolate,
      // The type tests (`*.test-d.ts`) are checked once, by `npm run typecheck` (tsc over the
      // whole repository), and counted by scripts/summary-reporter.ts. Vitest would run tsc over
      // the repository again for each package; `npx vitest run --typecheck` still can.
      typecheck: {
        enabled: false,
        include: ['src/**/*.test-d.ts'],
        tsconfig: '../../tsconfig.json',
      },
    },
  });
}

/**
 * A package's tests in one worker per core that keeps the modules it imported from one file to
 * the next (`isolate: false`): importing the sources, zod and the host SDKs again for every
 * file was most of the unit tests' time. Their tests share no state but what the sources cache
 * (a named data type, a built schema), which is the same for every file. The files that need a
 * fresh worker (see NEEDS_ISOLATION) run in a second project, `<name>-isolated`.
 */
function packageProjects(name: string): TestProjectInlineConfiguration[] {
  const include = ['src/**/*.test.{ts,tsx}'];
  const isolated = isolatedFiles(`packages/${name}`, ['']);
  const shared = packageProject(name, {
    include,
    ...(isolated.length === 0 ? {} : { exclude: isolated }),
    isolate: false,
  });
  if (isolated.length === 0) return [shared];
  return [shared, packageProject(name, { include: isolated, isolate: true, suffix: '-isolated' })];
}

/** The examples' tests, split as a package's are (see {@link packageProjects}). */
function examplesProjects(): TestProjectInlineConfiguration[] {
  const include = ['*/src/**/*.test.{ts,tsx}'];
  const examples = readdirSync(join(import.meta.dirname, 'examples'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(entry.parentPath, entry.name, 'src')))
    .map((entry) => entry.name);
  const isolated = isolatedFiles('examples', examples);
  const project = (
    name: string,
    test: { include: string[]; exclude?: string[]; isolate: boolean },
  ) =>
    defineProject({
      resolve: source,
      ssr: { resolve: source },
      test: { name, ...timeouts, root: './examples', ...test },
    });
  // The Workflow SDK example is built and run by that SDK's test runtime: its own project.
  const workflowSdk = 'durable-workflow-sdk/**';
  const shared = project('examples', {
    include,
    exclude: [...configDefaults.exclude, workflowSdk, ...isolated],
    isolate: false,
  });
  if (isolated.length === 0) return [shared];
  return [shared, project('examples-isolated', { include: isolated, isolate: true })];
}

/** The test projects, one per package plus the examples; `vitest.config.ts` hands this list to `test.projects`. */
const projects: (TestProjectInlineConfiguration | string)[] = [
  ...packageProjects('core'),
  ...packageProjects('prompt'),
  ...packageProjects('controller'),
  ...packageProjects('adapters'),
  ...packageProjects('eval'),
  // React renders into a DOM each file sets up (happy-dom) and a global act() flag.
  packageProject('react', { include: ['src/**/*.test.{ts,tsx}'], isolate: true }),
  ...packageProjects('otel'),
  ...examplesProjects(),
  // The Workflow SDK compiles its workflows with its own plugin and runs them on an in-process
  // local world: the example's own config, as a project (left out of examplesProjects).
  './examples/durable-workflow-sdk/vitest.config.ts',
];

export default projects;
