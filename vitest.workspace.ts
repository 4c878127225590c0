import { configDefaults, defineProject, type TestProjectInlineConfiguration } from 'vitest/config';

// Tests run on the TypeScript sources through the repo-internal export condition.
const source = { conditions: ['@plankit/source'] };

// Tests wait on events, never on the clock, so a timeout only stops a test that hangs. It is
// generous so that a test of a few seconds on an idle machine still passes on a busy one.
const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };

function packageProject(name: string): TestProjectInlineConfiguration {
  return defineProject({
    resolve: source,
    ssr: { resolve: source },
    test: {
      name,
      ...timeouts,
      root: `./packages/${name}`,
      include: ['src/**/*.test.{ts,tsx}'],
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

/** The test projects, one per package plus the examples; `vitest.config.ts` hands this list to `test.projects`. */
const projects: (TestProjectInlineConfiguration | string)[] = [
  packageProject('core'),
  packageProject('prompt'),
  packageProject('controller'),
  packageProject('adapters'),
  packageProject('eval'),
  packageProject('react'),
  packageProject('otel'),
  defineProject({
    resolve: source,
    ssr: { resolve: source },
    test: {
      name: 'examples',
      ...timeouts,
      root: './examples',
      include: ['*/src/**/*.test.{ts,tsx}'],
      // Built and run by the Workflow SDK's test runtime: the project below.
      exclude: [...configDefaults.exclude, 'durable-workflow-sdk/**'],
    },
  }),
  // The Workflow SDK compiles its workflows with its own plugin and runs them on an in-process
  // local world: the example's own config, as a project.
  './examples/durable-workflow-sdk/vitest.config.ts',
];

export default projects;
