import { Plan, type PlanStep, type Result } from '@plankit/core';
import { clipText, deepFreeze, formatPath, isRecord } from '@plankit/core/internal-unstable';
import { fnv1a } from './fnv1a.ts';
import { PlanAnchorError } from './plan-anchor-error.ts';

/**
 * The anchor format version {@link toPlanAnchor} writes: a checksum and no key, so anyone can
 * write one (unauthenticated). {@link fromPlanAnchor} reads it and version
 * {@link AUTHENTICATED_PLAN_ANCHOR_VERSION}.
 * @public
 */
export const PLAN_ANCHOR_VERSION = 1;

/**
 * The anchor format version `toAuthenticatedPlanAnchor` writes: version 1's lines, checksum
 * and an HMAC-SHA-256 `mac` attribute made with a host's key.
 * @public
 */
export const AUTHENTICATED_PLAN_ANCHOR_VERSION = 2;

/** The tag name of a plan anchor block. @internal */
export const ANCHOR_TAG = 'plankit-plan-anchor';
const TAG = ANCHOR_TAG;
// A block's body never holds another opening tag: a truncated block (a summary cut short)
// before a whole one must not swallow it, and the scan from each opening stops at the next.
// The attributes are bounded, so text full of unclosed opening tags is read in linear time.
const BLOCK = new RegExp(
  `<${TAG}(\\s[^>\\n]{0,256})?>((?:(?!<${TAG}[\\s>])[\\s\\S])*?)</${TAG}>`,
  'g',
);
const ATTRIBUTE = /\s([a-z]+)="([^"]*)"/g;

// Text that spells the tag is written with `<` as the JSON escape `\u003c`, so no plan can
// open or close a block from inside one; JSON.parse reads it back as `<`.
const TAG_IN_TEXT = new RegExp(`<(/?${TAG})`, 'g');
const guarded = (json: string): string => json.replace(TAG_IN_TEXT, '\\u003c$1');

// Keys in a fixed order, so the same plan always gives the same bytes.
const headLine = (plan: Plan): string =>
  guarded(JSON.stringify({ objective: plan.objective, status: plan.status }));
const REFERENCE_KEYS = new Set(['step_id', 'title', 'details', 'status', 'notes']);
// The reference keys first, then any opt-in field a step carries (`depends_on`, and whatever
// later plan-model options add) in sorted order, so a reference plan's bytes never change
// and no field of a richer plan is lost.
const stepLine = (step: PlanStep): string => {
  const line: Record<string, unknown> = Object.assign(Object.create(null), {
    step_id: step.step_id,
    title: step.title,
    details: step.details,
    status: step.status,
    notes: step.notes,
  });
  for (const key of Object.keys(step).sort()) {
    const value = (step as unknown as Record<string, unknown>)[key];
    if (!REFERENCE_KEYS.has(key) && value !== undefined) line[key] = value;
  }
  return guarded(JSON.stringify(line));
};

/**
 * Writes a plan as a versioned, checksummed, byte-stable block for a host's compaction
 * summary: one JSON line for the plan, then one per step. {@link fromPlanAnchor} restores the
 * exact plan (ids, statuses, details, notes, and the opt-in fields such as `depends_on`). A
 * plan without opt-in fields gives the same bytes as before they existed.
 *
 * @example
 * ```ts
 * const summary = `${modelSummary}\n\n${toPlanAnchor(plan)}`;
 * ```
 * @public
 */
export function toPlanAnchor(plan: Plan): string {
  const body = anchorBody(plan);
  return `<${TAG} version="${PLAN_ANCHOR_VERSION}" checksum="${fnv1a(body)}">\n${body}\n</${TAG}>`;
}

/** The JSON lines of a plan's anchor, joined by `\n`. @internal */
export function anchorBody(plan: Plan): string {
  return [headLine(plan), ...plan.steps.map(stepLine)].join('\n');
}

/** A refusal as a result value. @internal */
export function fail(
  code: PlanAnchorError['code'],
  message: string,
  field?: string,
): Result<never, PlanAnchorError> {
  return { ok: false, error: new PlanAnchorError(code, message, { field }) };
}

/** The last whole block of a text, checked up to its checksum: its version, attributes and lines. @internal */
export interface AnchorBlock {
  /** 1 or 2. */
  readonly version: number;
  /** The attributes of the opening tag, by name (the last one of a repeated name). */
  readonly attributes: ReadonlyMap<string, string>;
  /** The JSON lines, joined by `\n`, without the line breaks around them. */
  readonly body: string;
}

/**
 * Reads back the last plan anchor found anywhere in `text` (a compaction summary, say), of
 * either version. It checks the checksum, not who wrote the block: anyone can write an anchor
 * this reads. To know a holder of your key wrote it, write it with `toAuthenticatedPlanAnchor`
 * and read it with `fromAuthenticatedPlanAnchor`.
 *
 * @returns the deeply frozen plan, or a {@link PlanAnchorError}: `anchor_missing`,
 *   `anchor_version_unknown`, `anchor_damaged` (altered or unreadable) or `anchor_invalid`
 *   (not a plan)
 * @public
 */
export function fromPlanAnchor(text: string): Result<Plan, PlanAnchorError> {
  const block = readAnchorBlock(text);
  return block.ok ? planOfBody(block.value.body) : block;
}

/** The last block of `text`, its version known and its checksum right. @internal */
export function readAnchorBlock(text: string): Result<AnchorBlock, PlanAnchorError> {
  if (typeof text !== 'string')
    return fail('anchor_missing', 'Expected text containing a plan anchor.');
  const normalised = text.replace(/\r\n/g, '\n');
  let last: RegExpExecArray | undefined;
  for (const match of normalised.matchAll(BLOCK)) last = match;
  if (last === undefined) return fail('anchor_missing', `No <${TAG}> block found.`);

  const attributes = new Map<string, string>();
  for (const [, name, value] of (last[1] ?? '').matchAll(ATTRIBUTE))
    attributes.set(name as string, value as string);
  const version = attributes.get('version');
  if (version === undefined)
    return fail('anchor_damaged', 'The plan anchor has no version.', 'version');
  if (
    version !== String(PLAN_ANCHOR_VERSION) &&
    version !== String(AUTHENTICATED_PLAN_ANCHOR_VERSION)
  ) {
    return fail(
      'anchor_version_unknown',
      `Plan anchor version ${clipText(version, 16)} is unknown; this build reads versions ${PLAN_ANCHOR_VERSION} and ${AUTHENTICATED_PLAN_ANCHOR_VERSION}.`,
      'version',
    );
  }
  const raw = last[2] ?? '';
  if (!raw.startsWith('\n') || !raw.endsWith('\n'))
    return fail('anchor_damaged', 'The plan anchor lost its line breaks.');
  const body = raw.slice(1, -1);
  if (attributes.get('checksum') !== fnv1a(body)) {
    return fail(
      'anchor_damaged',
      'The plan anchor was altered: its checksum does not match.',
      'checksum',
    );
  }
  return { ok: true, value: { version: Number(version), attributes, body } };
}

/** The plan an anchor's lines hold, deeply frozen, or why they hold none. @internal */
export function planOfBody(body: string): Result<Plan, PlanAnchorError> {
  let head: unknown;
  const steps: unknown[] = [];
  for (const [index, line] of body.split('\n').entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return fail('anchor_damaged', `Line ${index + 1} of the plan anchor is not JSON.`);
    }
    if (index === 0) head = value;
    else steps.push(value);
  }
  if (!isRecord(head)) {
    return fail('anchor_invalid', 'The plan anchor does not start with a plan.');
  }
  const parsed = Plan.safeParse({ ...head, steps });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue === undefined ? '' : formatPath(issue.path);
    return fail(
      'anchor_invalid',
      `The plan anchor holds an invalid plan${field ? ` at ${field}` : ''}: ${issue?.message}.`,
      field,
    );
  }
  return { ok: true, value: deepFreeze(parsed.data) };
}
