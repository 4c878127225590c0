import { PlankitError } from '../plankit-error.ts';

/** A programmer error: `where` was called with an argument that breaks `rule`. */
export function invalidArgument(where: string, field: string, rule: string): PlankitError {
  return new PlankitError('argument_invalid', `${where}: ${field} ${rule}.`, { field });
}
