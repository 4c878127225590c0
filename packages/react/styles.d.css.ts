/**
 * The types of `@plankit/react/styles.css` (its `types` condition): a stylesheet, imported
 * only for its effect (the default look of `<PlanChecklist>`), so it exports nothing. Without
 * it, TypeScript refuses `import '@plankit/react/styles.css'` wherever no bundler's types
 * declare `*.css`, since it checks side-effect imports by default.
 */
export {};
