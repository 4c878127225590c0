/**
 * Helpers shared by the plankit packages. Not part of the public API: it may change in any
 * release, so import it only from `@plankit/*` packages. It is published only because the
 * other plankit packages import it at run time; the guides and the API reference leave it out.
 *
 * @packageDocumentation
 * @module @plankit/core/internal-unstable
 */

export { withoutPlanChanges } from './diagnostics/without-plan-changes.ts';
export { Identity } from './internal/brand.ts';
export { appendedLogEntries, logReads } from './internal/call-log.ts';
export {
  type ArgumentError,
  checkOptionKeys,
  unknownOption,
} from './internal/check-option-keys.ts';
export { deepEqual } from './internal/deep-equal.ts';
export { escapeRefusedText } from './internal/escape-refused-text.ts';
export { formatPath } from './internal/format-path.ts';
export { invalidArgument } from './internal/invalid-argument.ts';
export { isRecord } from './internal/is-record.ts';
export { checkMovedFlags, movedFlagText } from './internal/moved-flags.ts';
export { plural } from './internal/plural.ts';
export { deepFreeze, update } from './internal/produce.ts';
export {
  clipText,
  escapeControl,
  REFUSAL_LIMIT,
  refusalText,
} from './internal/refusal-text.ts';
export {
  STORABLE_DEPTH,
  type StorableKind,
  type StorableProblem,
  type StorableRules,
  storableProblem,
  stringProblem,
  unstorableText,
} from './internal/storable-problem.ts';
export { toolFailure, toolSuccess } from './internal/tool-outcome.ts';
export { type ValueCheck, valueProblem } from './internal/value-problem.ts';
export { INDENT_LIMIT, NESTING_LIMIT, yamlNestingProblem } from './internal/yaml-nesting.ts';
export {
  type YamlDuplicateKey,
  type YamlNodeTests,
  yamlDuplicateKey,
} from './internal/yaml-nesting-keys.ts';
export type { AnyExtensionDeclares } from './planning/planning-extension.ts';
export { checkExtensions } from './planning/register-planning-extensions.ts';
export { checkTextMode } from './planning/text-mode.ts';
export {
  optionalText,
  requiredText,
  storedTextProblem,
  type TextProblem,
  trimText,
} from './planning/text-rules.ts';
export { codePointName } from './planning/unicode-text-rules.ts';
