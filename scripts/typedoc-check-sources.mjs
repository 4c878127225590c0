// A TypeDoc plugin: the published sources are type-checked by TypeScript 6, the version TypeDoc
// runs on, while `npm run typecheck` checks the whole repository with TypeScript 7 (native,
// several times faster). Users compile against either, so both must accept the sources. TypeDoc
// has already built a TypeScript 6 Program and resolved every exported type; checking the
// function bodies of the packages' non-test files in that Program costs a fraction of a second
// tsc run. Tests, examples and scripts are left to TypeScript 7. Any diagnostic fails the build
// with its `file:line`.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Converter } from 'typedoc';
import ts from 'typescript';

const PACKAGES = `${path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../packages')}/`;
const TEST_FILE = /\.test(-d)?\.tsx?$/;

/** @param {import('typedoc').Application} app */
export function load(app) {
  app.converter.on(Converter.EVENT_END, (context) => {
    let files = 0;
    for (const program of context.programs) {
      for (const source of program.getSourceFiles()) {
        const file = path.resolve(source.fileName);
        if (!file.startsWith(PACKAGES) || file.includes('/node_modules/')) continue;
        if (!file.includes('/src/') || TEST_FILE.test(file)) continue;
        files++;
        const diagnostics = [
          ...program.getSyntacticDiagnostics(source),
          ...program.getSemanticDiagnostics(source),
        ];
        for (const d of diagnostics) {
          if (fromLink(source.text, d)) continue;
          const line =
            d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
          const text = ts.flattenDiagnosticMessageText(d.messageText, ' ');
          app.logger.error(
            `TypeScript 6: ${path.relative(process.cwd(), file)}:${line + 1}: TS${d.code}: ${text}`,
          );
        }
      }
    }
    if (files === 0) app.logger.error('TypeScript 6 checked no package source file');
  });
}

// TypeDoc has TypeScript parse every comment, so a `{@link Session.dispatch}` whose `Session`
// is a type-only import (or not imported at all) is resolved as code and refused, reported at
// the declaration the comment documents; tsc does not report links, and TypeDoc validates them
// itself. Such a diagnostic names only words of the file's links.
const LINK = /\{@link(?:code|plain)?\s+([\w$.#]+)/g;
const LINK_CODES = new Set([2304, 2339, 2503, 2693, 2702, 2713]);

/** Whether diagnostic `d` is about a `{@link}` of `text`: every name it quotes is in a link. */
function fromLink(text, d) {
  if (!LINK_CODES.has(d.code)) return false;
  const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
  const quoted = [...message.matchAll(/'([^']+)'/g)].flatMap(
    ([, q]) => q.replace(/^typeof /, '').match(/[\w$]+/g) ?? [],
  );
  const linked = new Set([...text.matchAll(LINK)].flatMap(([, target]) => target.split(/[.#]/)));
  return quoted.length > 0 && quoted.every((word) => linked.has(word));
}
