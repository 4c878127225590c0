// Node module hook (test support): prints every bare package specifier that gets resolved.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
      export async function resolve(specifier, context, next) {
        if (!specifier.startsWith('.') && !specifier.startsWith('/') && !specifier.startsWith('node:') && !specifier.startsWith('file:') && !specifier.startsWith('data:')) {
          process.stdout.write('RESOLVE ' + specifier + '\\n');
        }
        return next(specifier, context);
      }
    `),
);
