import { defineProject, type TestProjectInlineConfiguration } from 'vitest/config';

const source = { conditions: ['@plankit/source'] };

/** The test projects, one per package; `vitest.config.ts` hands this list to `test.projects`. */
const projects: TestProjectInlineConfiguration[] = [
  defineProject({
    resolve: source,
    ssr: { resolve: source },
    test: {
      name: 'core',
      root: './packages/core',
      include: ['src/**/*.test.ts'],
      typecheck: {
        enabled: true,
        include: ['src/**/*.test-d.ts'],
        tsconfig: '../../tsconfig.json',
      },
    },
  }),
  defineProject({
    resolve: source,
    ssr: { resolve: source },
    test: { name: 'examples', root: './examples', include: ['*/src/**/*.test.ts'] },
  }),
];

export default projects;
