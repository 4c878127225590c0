/**
 * The outcome of an operation whose failure is expected (bad input, a refused change):
 * either `{ ok: true, value }` or `{ ok: false, error }`.
 *
 * @public
 */
export type Result<T, E = Error> = Ok<T> | Err<E>;

/** The success arm of {@link Result}. @public */
export interface Ok<T> {
  /** Always `true`. */
  readonly ok: true;
  /** The outcome. */
  readonly value: T;
}

/** The failure arm of {@link Result}. @public */
export interface Err<E> {
  /** Always `false`. */
  readonly ok: false;
  /** Why it failed; nothing was changed. */
  readonly error: E;
}
