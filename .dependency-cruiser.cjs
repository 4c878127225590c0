/**
 * Import-cycle check for the plankit packages, and two boundaries that are rules: adapters'
 * persistence chapter imports no host code, and React stays inside @plankit/react.
 *
 * Run: depcruise packages/*\/src --config .dependency-cruiser.cjs
 *
 * Every cycle fails, type-only ones included: a cycle through `import type` still couples two
 * files' concepts and makes the files impossible to move or read one at a time. Tests and test
 * helpers are cruised too, so a helper cannot quietly close a loop through the code it tests.
 *
 * @type {import('dependency-cruiser').IConfiguration}
 */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'This file is part of an import cycle (type-only imports count). Move the shared types ' +
        'to the file that owns the concept, or to a small types file.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'persistence-stands-alone',
      severity: 'error',
      comment:
        'The persistence chapter of @plankit/adapters (src/persistence/: stores, postgres, ' +
        'workspace) depends on core and on the files at the root of adapters/src only (its tests ' +
        'also on the shared test helpers in testing/), never on a host adapter, host/ or ' +
        'sessions/, so it reads on its own and could become a package of its own without ' +
        'untangling (docs/persistence.md says why it is not one today).',
      from: { path: '^packages/adapters/src/persistence/' },
      to: { path: '^packages/adapters/src/(?!persistence/|testing/)[^/]+/' },
    },
    {
      name: 'test-helpers-only-in-tests',
      severity: 'error',
      comment:
        'Files in a testing/ folder are test helpers: only tests and other helpers import them, ' +
        'so no published entry bundles them.',
      from: { pathNot: '(\\.test\\.tsx?$|/testing/)' },
      to: { path: '/testing/' },
    },
    {
      name: 'react-only-in-its-package',
      severity: 'error',
      comment:
        'React is a peer of @plankit/react only: core, prompt, controller, adapters and eval ' +
        'must install and run without it.',
      from: { path: '^packages/(?!react/)' },
      to: { path: '(^|/)node_modules/(react|react-dom|@types/react|@types/react-dom)/' },
    },
  ],
  options: {
    // Follow workspace packages (resolved to packages/*/src through the source condition), but
    // not third-party code.
    doNotFollow: { path: 'node_modules' },
    // Keep type-only imports, which TypeScript erases, in the graph.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@plankit/source', 'import', 'types', 'default'],
      extensions: ['.ts', '.mts', '.js', '.mjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
  },
};
