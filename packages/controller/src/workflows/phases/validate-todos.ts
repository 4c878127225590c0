import type { Result } from '@plankit/core';
import {
  clipText,
  isRecord,
  stringProblem,
  yamlDuplicateKey,
  yamlNestingProblem,
} from '@plankit/core/internal-unstable';
import type { TodoRange } from '@plankit/prompt';
import { isMap, isPair, isScalar, isSeq, Lexer, parseDocument } from 'yaml';
import { argumentError, checkOptions, fail, isInteger, show } from '../internal/checks.ts';
import type { WorkflowError } from '../workflow-error.ts';
import { DEFAULT_TODO_RANGE, type TodoSpec } from './predefined-todos.ts';

/** A file the host did not read because it is too large; only its size is known. @public */
export interface OversizedFile {
  /** Always `oversized`. */
  readonly kind: 'oversized';
  /** The file's size in bytes. */
  readonly bytes: number;
}

/**
 * What the host found at `todos.yaml`: its text, `null` when the file is missing, or an
 * {@link OversizedFile} it refused to read.
 *
 * @public
 */
export type TodosSource = string | null | OversizedFile;

/** A valid todos document: the todos of the next tactical phase. @public */
export interface TodosDocument {
  /** The document's `phase` title, when it is a string. */
  readonly phase: string | null;
  /** The document's `description`, when it is a string. */
  readonly description: string | null;
  /** The todos, in document order. */
  readonly todos: readonly TodoSpec[];
}

/** Options of {@link validateTodos}. @public */
export interface TodosValidationOptions {
  /** How many todos a document must have; 5-20 by default. */
  readonly range?: TodoRange | undefined;
  /** The largest document read, in UTF-8 bytes; 65,536 by default. */
  readonly maxBytes?: number | undefined;
}

/**
 * The codes of the todos document's rules, in the order {@link validateTodos} applies them.
 *
 * @public
 */
export type TodosRule =
  | 'todos_missing'
  | 'todos_too_large'
  | 'todos_yaml_invalid'
  | 'todos_list_missing'
  | 'todos_count'
  | 'todo_invalid'
  | 'todo_id_duplicate';

/** The largest todos document parsed, in bytes: 64 KiB, far more than 20 todos need. @public */
export const DEFAULT_TODOS_MAX_BYTES = 65_536;

/** The most bytes any limit may allow: 16 MiB. */
export const MAX_BYTES_LIMIT: number = 16 * 1024 * 1024;

const OPTION_KEYS: ReadonlySet<string> = new Set(['range', 'maxBytes']);
const MAX_YAML_ERROR = 1000;
const YAML_NODES = { isMap, isPair, isScalar, isSeq };

/** UTF-8 length of `text`, counted without encoding it (a lone surrogate counts as 3 bytes). */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** ` at line L, column C` of a character offset, both from 1. */
function position(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return ` at line ${line}, column ${offset - start + 1}`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}

/** Checks a todo range and a byte limit, naming the options they came from. */
export function checkLimits(
  where: string,
  range: unknown,
  maxBytes: unknown,
  fields: { readonly range: string; readonly maxBytes: string },
): { readonly range: TodoRange; readonly maxBytes: number } {
  if (
    !isRecord(range) ||
    !isInteger(range['min'], 1, 1000) ||
    !isInteger(range['max'], range['min'], 1000)
  ) {
    throw argumentError(where, fields.range, 'must be integers with 1 <= min <= max <= 1000');
  }
  if (!isInteger(maxBytes, 1, MAX_BYTES_LIMIT)) {
    throw argumentError(where, fields.maxBytes, `must be an integer from 1 to ${MAX_BYTES_LIMIT}`);
  }
  return { range: { min: range['min'], max: range['max'] }, maxBytes };
}

/**
 * Rules 4 to 7 on parsed data: a `todos` list, its count, each item, unique ids. Shared by
 * the hand-off and by `todo_write`, so the tool never writes a document the hand-off rejects.
 */
export function todosFromData(
  data: unknown,
  range: TodoRange,
): Result<TodosDocument, WorkflowError> {
  const list = isRecord(data) && Object.hasOwn(data, 'todos') ? data['todos'] : undefined;
  if (!Array.isArray(list)) {
    return fail('todos_list_missing', "todos.yaml must have a 'todos' list.", 'todos');
  }
  if (list.length < range.min || list.length > range.max) {
    return fail(
      'todos_count',
      `Expected ${range.min}-${range.max} todos, got ${list.length}.`,
      'todos',
    );
  }
  const todos: TodoSpec[] = [];
  const seen = new Map<number, number>();
  for (const [index, item] of list.entries()) {
    const at = `todos[${index}]`;
    if (!isRecord(item)) {
      return fail(
        'todo_invalid',
        `${at} must be a mapping with an integer 'id' and a string 'content', got ${typeName(item)}.`,
        at,
      );
    }
    const { id, content } = item;
    if (typeof id !== 'number' || !Number.isSafeInteger(id)) {
      const got = id === undefined ? 'no id' : `${show(id)} (${typeName(id)})`;
      return fail('todo_invalid', `${at}.id must be an integer, got ${got}.`, `${at}.id`);
    }
    if (typeof content !== 'string' || content.trim() === '') {
      const got =
        content === undefined
          ? 'no content'
          : typeof content === 'string'
            ? 'a blank string'
            : `${show(content)} (${typeName(content)})`;
      return fail(
        'todo_invalid',
        `${at}.content must be a non-empty string, got ${got}.`,
        `${at}.content`,
      );
    }
    const unstorable = stringProblem(content);
    if (unstorable !== undefined) {
      return fail(
        'todo_invalid',
        `${at}.content ${unstorable}, so no store could hold it.`,
        `${at}.content`,
      );
    }
    const first = seen.get(id);
    if (first !== undefined) {
      return fail(
        'todo_id_duplicate',
        `${at}.id repeats id ${id} of todos[${first}]; ids must be unique.`,
        `${at}.id`,
      );
    }
    seen.set(id, index);
    todos.push(Object.freeze({ id, content }));
  }
  const text = (key: string): string | null => {
    const value = isRecord(data) && Object.hasOwn(data, key) ? data[key] : undefined;
    return typeof value === 'string' ? value : null;
  };
  for (const key of ['phase', 'description']) {
    const value = text(key);
    const unstorable = value === null ? undefined : stringProblem(value);
    if (unstorable !== undefined) {
      return fail('todo_invalid', `${key} ${unstorable}, so no store could hold it.`, key);
    }
  }
  return {
    ok: true,
    value: Object.freeze({
      phase: text('phase'),
      description: text('description'),
      todos: Object.freeze(todos),
    }),
  };
}

/** Rules 1 to 3: present, within the size limit, valid YAML; the parsed data otherwise. */
function parseSource(source: TodosSource, maxBytes: number): Result<unknown, WorkflowError> {
  if (source === null) {
    return fail('todos_missing', 'todos.yaml not found. Create it with todo_write.', 'todos');
  }
  const bytes = typeof source === 'string' ? utf8Length(source) : source.bytes;
  if (bytes > maxBytes) {
    return fail(
      'todos_too_large',
      `todos.yaml is ${bytes} bytes; the limit is ${maxBytes} bytes.`,
      'todos',
    );
  }
  if (typeof source !== 'string') {
    // An oversized file that is not oversized after all: the host's limit was lower than ours.
    return fail(
      'todos_too_large',
      `todos.yaml was not read: the host refused its ${bytes} bytes.`,
      'todos',
    );
  }
  const nesting = yamlNestingProblem(source, new Lexer());
  if (nesting !== null) {
    return fail('todos_yaml_invalid', `Invalid YAML: todos.yaml ${nesting}.`, 'todos');
  }
  // Only the data of one document: duplicate keys, several documents and alias bombs are
  // errors, and warnings (unknown tags) are not logged from a pure function. The parser's code
  // frame is left out so the reason stays on one line; its position is added instead. The
  // parser's own duplicate-key check is quadratic, so keys are checked here, in linear time.
  const document = parseDocument(source, {
    uniqueKeys: false,
    logLevel: 'error',
    prettyErrors: false,
  });
  const error = document.errors[0];
  if (error !== undefined) {
    const reason = `${clipText(error.message.trim(), MAX_YAML_ERROR)}${position(source, error.pos[0])}`;
    return fail('todos_yaml_invalid', `Invalid YAML: ${reason}`, 'todos', error);
  }
  const duplicate = yamlDuplicateKey(document.contents, YAML_NODES);
  if (duplicate !== null) {
    const reason = `${duplicate.message}${position(source, duplicate.offset)}`;
    return fail('todos_yaml_invalid', `Invalid YAML: ${reason}`, 'todos');
  }
  try {
    return { ok: true, value: document.toJS({ maxAliasCount: 100 }) };
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    return fail(
      'todos_yaml_invalid',
      `Invalid YAML: ${clipText(reason, MAX_YAML_ERROR)}`,
      'todos',
      cause,
    );
  }
}

/**
 * Checks a todos document, the hand-off gate, applying its rules in order: present
 * (`todos_missing`), within `maxBytes` (`todos_too_large`, never parsed), valid YAML
 * (`todos_yaml_invalid`, with the parser's error), a `todos` list (`todos_list_missing`), a
 * count within `range` (`todos_count`: `Expected 5-20 todos, got N.`), each item an integer
 * `id` and a non-blank string `content` that a store can hold, with no U+0000 or lone
 * surrogate, which YAML escapes can make (`todo_invalid`; the same for `phase` and
 * `description`), and unique ids (`todo_id_duplicate`). The error's message is the reason the
 * agent reads.
 *
 * @throws WorkflowError `argument_invalid` for bad options
 * @example
 * ```ts
 * const checked = validateTodos(await readFile('todos.yaml', 'utf8'));
 * if (!checked.ok) console.log(`Phase transition rejected: ${checked.error.message}`);
 * ```
 * @public
 */
export function validateTodos(
  source: TodosSource,
  options: TodosValidationOptions = {},
): Result<TodosDocument, WorkflowError> {
  checkOptions('validateTodos', options, OPTION_KEYS);
  const { range, maxBytes } = checkLimits(
    'validateTodos',
    options.range ?? DEFAULT_TODO_RANGE,
    options.maxBytes ?? DEFAULT_TODOS_MAX_BYTES,
    { range: 'options.range', maxBytes: 'options.maxBytes' },
  );
  if (
    source !== null &&
    typeof source !== 'string' &&
    !(
      isRecord(source) &&
      source.kind === 'oversized' &&
      isInteger(source.bytes, 0, Number.MAX_SAFE_INTEGER)
    )
  ) {
    throw argumentError(
      'validateTodos',
      'source',
      'must be a string, null or { kind: "oversized", bytes }',
    );
  }
  const parsed = parseSource(source, maxBytes);
  return parsed.ok ? todosFromData(parsed.value, range) : parsed;
}
