// Every pending changeset must parse and name only publishable workspace packages: a formatter
// once rewrote a changeset's frontmatter into a heading, which changesets then refused. And
// every publishable package is versioned with the others (a `fixed` group of
// .changeset/config.json, not ignored), so each release writes its CHANGELOG.md.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import parse from '@changesets/parse';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const publishable = new Set();
for (const dir of await readdir(path.join(root, 'packages'))) {
  const manifest = JSON.parse(
    await readFile(path.join(root, 'packages', dir, 'package.json'), 'utf8'),
  );
  if (!manifest.private) publishable.add(manifest.name);
}

const problems = [];
const files = (await readdir(path.join(root, '.changeset'))).filter(
  (name) => name.endsWith('.md') && name !== 'README.md',
);
for (const name of files) {
  try {
    const { releases, summary } = parse(
      await readFile(path.join(root, '.changeset', name), 'utf8'),
    );
    if (releases.length === 0) problems.push(`${name}: names no package`);
    if (summary.trim() === '') problems.push(`${name}: has no summary`);
    for (const { name: pkg, type } of releases) {
      if (!publishable.has(pkg)) problems.push(`${name}: ${pkg} is not a publishable package`);
      if (!['major', 'minor', 'patch'].includes(type))
        problems.push(`${name}: ${pkg} has bump type ${type}`);
    }
  } catch (error) {
    problems.push(
      `${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
}
const config = JSON.parse(await readFile(path.join(root, '.changeset', 'config.json'), 'utf8'));
/** A package name pattern of the config (`@plankit/*`) as a RegExp. */
const pattern = (glob) =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '[^/]*')}$`);
const matches = (globs, name) => (globs ?? []).some((glob) => pattern(glob).test(name));
for (const pkg of publishable) {
  if (matches(config.ignore, pkg))
    problems.push(`config.json: ${pkg} is ignored, so no release writes its CHANGELOG.md`);
  if (!(config.fixed ?? []).some((group) => matches(group, pkg)))
    problems.push(
      `config.json: ${pkg} is in no fixed group, so it would not version with the others`,
    );
}

if (problems.length > 0) {
  console.error(
    `changesets: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}`,
  );
  process.exit(1);
}
console.log(`changesets: ${files.length} ok`);
