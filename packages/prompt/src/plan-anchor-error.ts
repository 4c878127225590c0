import { PlankitError, type PlankitErrorOptions } from '@plankit/core';

/** Codes of {@link PlanAnchorError}. @public */
export type PlanAnchorCode =
  | 'anchor_missing'
  | 'anchor_version_unknown'
  | 'anchor_damaged'
  | 'anchor_invalid'
  | 'anchor_unauthenticated'
  | 'anchor_mac_mismatch';

/**
 * A plan anchor could not be read back: none was found, its version is unknown, it was
 * altered, or it holds something that is not a plan. Read with a key, also when it carries no
 * MAC (`anchor_unauthenticated`: written without a key, or before version 2) or a MAC the key
 * does not verify (`anchor_mac_mismatch`: altered, forged, or made with another key).
 *
 * @public
 */
export class PlanAnchorError extends PlankitError<PlanAnchorCode> {
  /** The name every instance takes, kept as a literal so minified bundles keep it. */
  static override readonly errorName: string = 'PlanAnchorError';

  /**
   * Creates the error.
   *
   * @param code - the stable reason
   * @param message - what is wrong with the block
   * @param options - the field at fault and the cause
   */
  constructor(code: PlanAnchorCode, message: string, options: PlankitErrorOptions = {}) {
    super(code, message, options);
  }

  /** True for a {@link PlanAnchorError}, from this copy of the package or another one. */
  static override isInstance(value: unknown): value is PlanAnchorError {
    return PlankitError.hasBrand(value, PlanAnchorError.errorName);
  }
}
