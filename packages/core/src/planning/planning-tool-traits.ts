import type { ToolTraits } from '../define-tool.ts';

// Each planning tool's traits, decided from the reference semantics (specs/adapters.md lists
// the reasons). Every planning tool is strict and works on the session only, so none is
// open-world. Idempotency is about the plan; the session's call log still records every call.
// The dependency-aware and history-wrapped tools keep the traits of the tool they extend.
const traits = (own: ToolTraits): ToolTraits =>
  Object.freeze({ strict: true, ...own, openWorld: false });

/** The traits of each planning tool, by the tool it is. @internal */
export const PLANNING_TOOL_TRAITS: {
  readonly setup: ToolTraits;
  readonly add: ToolTraits;
  readonly update: ToolTraits;
  readonly mark: ToolTraits;
  readonly clear: ToolTraits;
  readonly read: ToolTraits;
  readonly batch: ToolTraits;
  readonly claim: ToolTraits;
  readonly release: ToolTraits;
} = Object.freeze({
  // Replaces any current plan; the same arguments rebuild the same plan (ids restart at S001).
  setup: traits({
    title: 'Set up the plan',
    readOnly: false,
    destructive: true,
    idempotent: true,
  }),
  // Only appends, but every call appends again under new ids.
  add: traits({ title: 'Add plan steps', readOnly: false, destructive: false, idempotent: false }),
  // Overwrites a title or details; the same patch twice leaves the same step.
  update: traits({
    title: 'Update a plan step',
    readOnly: false,
    destructive: true,
    idempotent: true,
  }),
  // Overwrites a status; a note is appended on every call, so a repeat is not a no-op.
  mark: traits({
    title: 'Mark a plan step',
    readOnly: false,
    destructive: true,
    idempotent: false,
  }),
  // Abandons the plan and drops its steps; a second clear is refused and changes nothing.
  clear: traits({ title: 'Clear the plan', readOnly: false, destructive: true, idempotent: true }),
  read: traits({ title: 'Read the plan', readOnly: true }),
  // A batch may mark and edit (overwrites) and add notes or steps (appends).
  batch: traits({
    title: 'Apply a batch of plan changes',
    readOnly: false,
    destructive: true,
    idempotent: false,
  }),
  // Takes a free step only; a repeat by the holder changes nothing, another holder is refused.
  claim: traits({
    title: 'Claim a plan step',
    readOnly: false,
    destructive: false,
    idempotent: true,
  }),
  // Drops the caller's own claim; a second release is refused and changes nothing.
  release: traits({
    title: 'Release a plan step',
    readOnly: false,
    destructive: true,
    idempotent: true,
  }),
});
