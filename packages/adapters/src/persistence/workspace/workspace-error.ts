import { PlankitError, type PlankitErrorOptions } from '@plankit/core';

/**
 * Codes of {@link WorkspaceError}. The set is stable: codes are added, never renamed.
 *
 * @public
 */
export type WorkspaceErrorCode =
  | 'root_invalid'
  | 'path_invalid'
  | 'path_outside_root'
  | 'not_found'
  | 'not_a_file'
  | 'too_large'
  | 'input_invalid'
  | 'corrupt'
  | 'io';

/** Options of {@link WorkspaceError}. @public */
export interface WorkspaceErrorOptions extends PlankitErrorOptions {
  /** The workspace path the call was about, as given. */
  readonly path?: string | undefined;
}

/**
 * A workspace refused or failed a call. Workspace methods return it in a `Result`, never throw
 * it: `path_invalid` and `path_outside_root` for paths that would leave the root, `corrupt`
 * for a damaged file, `io` for the file system's own errors (the `cause`).
 *
 * @public
 */
export class WorkspaceError extends PlankitError<WorkspaceErrorCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'WorkspaceError';

  /** The workspace path the call was about, when there was one. */
  readonly path: string | undefined;

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - what went wrong, naming the path and the rule
   * @param options - the path, field and cause
   */
  constructor(code: WorkspaceErrorCode, message: string, options: WorkspaceErrorOptions = {}) {
    super(code, message, options);
    this.path = options.path;
  }

  /** True for a {@link WorkspaceError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is WorkspaceError {
    return PlankitError.hasBrand(value, WorkspaceError.errorName);
  }
}
