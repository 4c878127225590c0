import { unknownOption } from '../internal/check-option-keys.ts';
import { isRecord } from '../internal/is-record.ts';
import { clipText } from '../internal/refusal-text.ts';
import type { StepStatus } from '../planning/plan.ts';
import type { TextMode } from '../planning/text-mode.ts';
import { trimText } from '../planning/text-rules.ts';
import type { Result } from '../result.ts';
import { ToolValidationError } from '../tool-validation-error.ts';

/**
 * The most items a foreign list may hold. Agents write lists of a few dozen items; a longer
 * one is refused before any matching, so a runaway list costs nothing. @public
 */
export const MAX_INTEROP_ITEMS = 1000;

/** How one format writes its list: the fields the reader checks. @internal */
export interface ForeignListSpec {
  /** The converter, for messages: `fromCodexPlan`. */
  readonly where: string;
  /** Every field the arguments may hold. */
  readonly argKeys: ReadonlySet<string>;
  /** The field holding the list: `plan`, `todos`, `entries`. */
  readonly list: string;
  /** Fields of the arguments that must hold one exact string (`sessionUpdate: 'plan'`). */
  readonly fixed?: Readonly<Record<string, string>> | undefined;
  /** Every field an item may hold. */
  readonly itemKeys: ReadonlySet<string>;
  /** The item's text field: `content`, `step`, `subject`. */
  readonly text: string;
  /** The format's statuses and the plankit status each asks for. */
  readonly statuses: Readonly<Record<string, StepStatus>>;
  /** The status of an item that leaves it out; required when undefined. */
  readonly defaultStatus?: StepStatus | undefined;
  /** The item's free-text field that holds a step's details, if the format has one. */
  readonly details?: string | undefined;
  /** The item's id field, if the format carries plankit's step ids back. */
  readonly id?: string | undefined;
}

/** One item of a foreign list, in plankit's terms. @internal */
export interface ForeignItem {
  /** The text as written: the tools trim and check it. */
  readonly title: string;
  /** What items are matched on: the trimmed text, NFC-normalised under `'unicode'`. */
  readonly key: string;
  /** The plankit status the item asks for. */
  readonly status: StepStatus;
  /** The details as written (blank clears them); undefined when the format has no such field. */
  readonly details: string | undefined;
  /** The id the item carries, if its format has one. */
  readonly id: string | undefined;
}

function schema(message: string, field: string): { ok: false; error: ToolValidationError } {
  return { ok: false, error: new ToolValidationError(message, { code: 'schema', field }) };
}

function show(value: string): string {
  return JSON.stringify(clipText(value, 80));
}

/**
 * The matching key of `text`: what the tools of `mode` would store (NFC under `'unicode'`,
 * then trimmed, in their order), so a retyped space or another normal form still matches.
 */
export function matchKey(text: string, mode: TextMode): string {
  return trimText(mode === 'unicode' ? text.normalize('NFC') : text);
}

/**
 * Reads the arguments of a foreign whole-list write into {@link ForeignItem}s, refusing what no
 * plan could follow: not the format's shape (a field it does not have, `__proto__` included,
 * a missing or mistyped one), more than {@link MAX_INTEROP_ITEMS} items, a status outside the
 * format's, or two items with the same text (or the same id). Text rules are the tools' own
 * and are applied when the calls run. @internal
 */
export function readForeignList(
  spec: ForeignListSpec,
  args: unknown,
  mode: TextMode,
): Result<readonly ForeignItem[], ToolValidationError> {
  if (!isRecord(args)) return schema(`${spec.where}: the arguments must be an object.`, '');
  const extra = unknownOption(args, spec.argKeys);
  if (extra !== undefined)
    return schema(`Field ${show(extra)} is not part of the arguments.`, extra);
  for (const [field, value] of Object.entries(spec.fixed ?? {})) {
    if (args[field] !== value) return schema(`Field ${field} must be "${value}".`, field);
  }
  const list = Object.hasOwn(args, spec.list) ? args[spec.list] : undefined;
  if (!Array.isArray(list)) return schema(`Field ${spec.list} must be an array.`, spec.list);
  if (list.length > MAX_INTEROP_ITEMS) {
    return {
      ok: false,
      error: new ToolValidationError(
        `Field ${spec.list} holds ${list.length} items; a plan takes at most ${MAX_INTEROP_ITEMS} in one write.`,
        { code: 'list_too_long', field: spec.list },
      ),
    };
  }
  const items: ForeignItem[] = [];
  const byKey = new Map<string, number>();
  const byId = new Map<string, number>();
  const statusRule = `must be one of: ${Object.keys(spec.statuses).join(', ')}`;
  for (let i = 0; i < list.length; i++) {
    const at = `${spec.list}[${i}]`;
    const item: unknown = list[i];
    if (!isRecord(item)) return schema(`${at} must be an object.`, at);
    const key = unknownOption(item, spec.itemKeys);
    if (key !== undefined)
      return schema(`${at}: field ${show(key)} is not part of an item.`, `${at}.${key}`);
    const title = item[spec.text];
    if (typeof title !== 'string')
      return schema(`${at}.${spec.text} must be a string.`, `${at}.${spec.text}`);
    const rawStatus = Object.hasOwn(item, 'status') ? item['status'] : undefined;
    const status =
      rawStatus === undefined && spec.defaultStatus !== undefined
        ? spec.defaultStatus
        : typeof rawStatus === 'string' && Object.hasOwn(spec.statuses, rawStatus)
          ? spec.statuses[rawStatus]
          : undefined;
    if (status === undefined) {
      const shown = typeof rawStatus === 'string' ? `${show(rawStatus)}; it ` : '';
      return {
        ok: false,
        error: new ToolValidationError(`${at}.status ${shown}${statusRule}.`, {
          code: 'status_invalid',
          field: `${at}.status`,
        }),
      };
    }
    let details: string | undefined;
    if (spec.details !== undefined && Object.hasOwn(item, spec.details)) {
      const value = item[spec.details];
      if (typeof value !== 'string')
        return schema(`${at}.${spec.details} must be a string.`, `${at}.${spec.details}`);
      details = value;
    }
    let id: string | undefined;
    if (spec.id !== undefined && Object.hasOwn(item, spec.id)) {
      const value = item[spec.id];
      if (typeof value !== 'string')
        return schema(`${at}.${spec.id} must be a string.`, `${at}.${spec.id}`);
      const first = byId.get(value);
      if (first !== undefined)
        return duplicate(`${at}.${spec.id}`, `${spec.list}[${first}].${spec.id}`);
      byId.set(value, i);
      id = value;
    }
    const match = matchKey(title, mode);
    const first = byKey.get(match);
    if (first !== undefined)
      return duplicate(`${at}.${spec.text}`, `${spec.list}[${first}].${spec.text}`);
    byKey.set(match, i);
    items.push({ title, key: match, status, details, id });
  }
  return { ok: true, value: items };
}

function duplicate(field: string, first: string): { ok: false; error: ToolValidationError } {
  return {
    ok: false,
    error: new ToolValidationError(
      `${field} repeats ${first}; every item of the list must be different, so each matches one step.`,
      { code: 'list_duplicate', field },
    ),
  };
}
