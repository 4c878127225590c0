import type { Attributes, AttributeValue, HrTime } from '@opentelemetry/api';

/**
 * What {@link renderSpanTree} reads of a finished span: the shape of the OpenTelemetry SDK's
 * `ReadableSpan` (1.x names the parent `parentSpanId`, 2.x `parentSpanContext`).
 */
export interface FinishedSpan {
  /** The span's name. */
  readonly name: string;
  /** Its ids. */
  spanContext(): { readonly spanId: string };
  /** The parent's ids (SDK 2.x). */
  readonly parentSpanContext?: { readonly spanId: string } | undefined;
  /** The parent's id (SDK 1.x). */
  readonly parentSpanId?: string | undefined;
  /** When it started, which orders siblings. */
  readonly startTime: HrTime;
  /** Its attributes. */
  readonly attributes: Attributes;
  /** Its events, in order. */
  readonly events: readonly {
    readonly name: string;
    readonly attributes?: Attributes | undefined;
  }[];
  /** Its status: `code` 2 is an error. */
  readonly status: { readonly code: number; readonly message?: string | undefined };
}

function parentOf(span: FinishedSpan): string | undefined {
  return span.parentSpanContext?.spanId ?? span.parentSpanId;
}

function value(item: AttributeValue | undefined): string {
  if (Array.isArray(item)) return `[${item.map((entry) => JSON.stringify(entry)).join(', ')}]`;
  return typeof item === 'string' ? JSON.stringify(item) : String(item);
}

function attributeLines(attributes: Attributes, indent: string): string[] {
  return Object.keys(attributes)
    .sort()
    .map((key) => `${indent}${key} = ${value(attributes[key])}`);
}

const earlier = (a: FinishedSpan, b: FinishedSpan): number =>
  a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1];

/**
 * Finished spans as an indented tree, one span a line with its attributes (sorted by name) and
 * events under it; no ids and no times, so the same run renders the same text. For the
 * terminal (`npm run demo -- --trace`) and for snapshot tests. A span whose parent is not in
 * `spans` is a root; siblings are in start order.
 *
 * @param spans - finished spans, such as an `InMemorySpanExporter`'s `getFinishedSpans()`
 * @returns the tree, one line per span, attribute and event
 */
export function renderSpanTree(spans: readonly FinishedSpan[]): string {
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  const children = new Map<string | undefined, FinishedSpan[]>();
  for (const span of spans) {
    const parent = parentOf(span);
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    const siblings = children.get(key) ?? [];
    siblings.push(span);
    children.set(key, siblings);
  }
  const lines: string[] = [];
  const visit = (span: FinishedSpan, depth: number): void => {
    const indent = '  '.repeat(depth);
    const status =
      span.status.code === 2
        ? `  ERROR${span.status.message ? `: ${span.status.message}` : ''}`
        : '';
    lines.push(`${indent}${span.name}${status}`);
    lines.push(...attributeLines(span.attributes, `${indent}  | `));
    for (const event of span.events) {
      lines.push(`${indent}  @ ${event.name}`);
      lines.push(...attributeLines(event.attributes ?? {}, `${indent}    | `));
    }
    const below = [...(children.get(span.spanContext().spanId) ?? [])].sort(earlier);
    for (const child of below) visit(child, depth + 1);
  };
  for (const root of [...(children.get(undefined) ?? [])].sort(earlier)) visit(root, 0);
  return lines.join('\n');
}
