import type { ToolTraits } from '../define-tool.ts';

// Each planning tool's traits, decided from the reference semantics (specs/adapters.md lists
// the reasons). Every planning tool is strict and works on the session only, so none is
// open-world. Idempotency is about the plan; the session's call log still records every call.
// The dependency-aware and history-wrapped tools keep the traits of the tool they extend;
// the tools extensions add declare their own beside them, with this helper. A planning tool
// works on the plan's open steps unless it says otherwise (its `plan` trait).
/** A planning tool's traits: strict, editing the plan and not open-world, plus `own`. @internal */
export const planningToolTraits = (own: ToolTraits): ToolTraits =>
  Object.freeze({ strict: true, plan: 'edit', ...own, openWorld: false });

const traits = planningToolTraits;

/** The traits of each of the six planning tools, by the tool it is. @internal */
export const PLANNING_TOOL_TRAITS: {
  readonly setup: ToolTraits;
  readonly add: ToolTraits;
  readonly update: ToolTraits;
  readonly mark: ToolTraits;
  readonly clear: ToolTraits;
  readonly read: ToolTraits;
} = Object.freeze({
  // Replaces any current plan; the same arguments rebuild the same plan (ids restart at S001).
  setup: traits({
    title: 'Set up the plan',
    plan: 'start',
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
  clear: traits({
    title: 'Clear the plan',
    plan: 'clear',
    readOnly: false,
    destructive: true,
    idempotent: true,
  }),
  read: traits({ title: 'Read the plan', plan: 'read', readOnly: true }),
});
