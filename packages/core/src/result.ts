/**
 * The outcome of an operation whose failure is expected (bad input, a refused change):
 * either `{ ok: true, value }` or `{ ok: false, error }`.
 *
 * @public
 */
export type Result<T, E = Error> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: E };
