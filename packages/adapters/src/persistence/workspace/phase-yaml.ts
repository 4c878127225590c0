import { yamlDuplicateKey, yamlNestingProblem } from '@plankit/core/internal-unstable';
import { isMap, isPair, isScalar, isSeq, Lexer, parseDocument, stringify } from 'yaml';

/** A todo as `todos.yaml` holds it. @public */
export interface TodosFileItem {
  /** An integer, unique in the document. */
  readonly id: number;
  /** What to do. */
  readonly content: string;
}

/** The document `todos.yaml` holds: the next tactical phase's todos. @public */
export interface TodosFile {
  /** A title for the phase. */
  readonly phase?: string | null | undefined;
  /** What the phase achieves. */
  readonly description?: string | null | undefined;
  /** The todos. */
  readonly todos: readonly TodosFileItem[];
}

/** A finished tactical phase, as `archive/phase_N.yaml` holds it. @public */
export interface ArchivedPhase {
  /** The phase's number. */
  readonly phaseNumber: number;
  /** Its title, or null. */
  readonly title: string | null;
  /** Its description, or null. */
  readonly description: string | null;
  /** Its todos, with their final status. */
  readonly todos: readonly {
    readonly id: number;
    readonly content: string;
    readonly status: string;
  }[];
}

// Long todo texts stay on one line, so a diff of two archives reads line by line.
const OPTIONS = { lineWidth: 0 } as const;
const YAML_NODES = { isMap, isPair, isScalar, isSeq };

/** Why `value` is not a todos document, if it is not. */
export function todosProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return 'must be { phase?, description?, todos }';
  const { phase, description, todos } = value as Record<string, unknown>;
  for (const [key, text] of [
    ['phase', phase],
    ['description', description],
  ] as const) {
    if (text !== undefined && text !== null && typeof text !== 'string')
      return `${key} must be a string or null`;
  }
  if (!Array.isArray(todos)) return 'todos must be a list';
  for (const [index, todo] of todos.entries()) {
    const { id, content } = (todo ?? {}) as Record<string, unknown>;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || typeof content !== 'string') {
      return `todos[${index}] must be { id: integer, content: string }`;
    }
  }
  return null;
}

/** `todos.yaml`: `phase` and `description` when set, then `todos`. */
export function renderTodos(document: TodosFile): string {
  const { phase, description, todos } = document;
  return stringify(
    {
      ...(phase === undefined || phase === null ? {} : { phase }),
      ...(description === undefined || description === null ? {} : { description }),
      todos: todos.map(({ id, content }) => ({ id, content })),
    },
    OPTIONS,
  );
}

/** Why `value` is not an archived phase, if it is not. */
export function archiveProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null)
    return 'must be { phaseNumber, title, description, todos }';
  const { phaseNumber, title, description, todos } = value as Record<string, unknown>;
  if (typeof phaseNumber !== 'number' || !Number.isSafeInteger(phaseNumber) || phaseNumber < 1) {
    return 'phaseNumber must be an integer >= 1';
  }
  for (const [key, text] of [
    ['title', title],
    ['description', description],
  ] as const) {
    if (text !== null && typeof text !== 'string') return `${key} must be a string or null`;
  }
  if (!Array.isArray(todos)) return 'todos must be a list';
  for (const [index, todo] of todos.entries()) {
    const { id, content, status } = (todo ?? {}) as Record<string, unknown>;
    if (
      typeof id !== 'number' ||
      !Number.isSafeInteger(id) ||
      typeof content !== 'string' ||
      typeof status !== 'string'
    ) {
      return `todos[${index}] must be { id: integer, content: string, status: string }`;
    }
  }
  return null;
}

/** `archive/phase_N.yaml`: `phase_number`, `title`, `description`, `todos`. */
export function renderArchive(archive: ArchivedPhase): string {
  return stringify(
    {
      phase_number: archive.phaseNumber,
      title: archive.title,
      description: archive.description,
      todos: archive.todos.map(({ id, content, status }) => ({ id, content, status })),
    },
    OPTIONS,
  );
}

/** An archive read back, or why it cannot be. */
export function parseArchive(text: string): ArchivedPhase | string {
  const nesting = yamlNestingProblem(text, new Lexer());
  if (nesting !== null) return `is not a phase archive: ${nesting}`;
  // The parser's own duplicate-key check is quadratic: keys are checked here, in linear time.
  const document = parseDocument(text, { uniqueKeys: false, logLevel: 'error' });
  if (document.errors.length > 0) return `is not valid YAML: ${document.errors[0]?.message ?? ''}`;
  const duplicate = yamlDuplicateKey(document.contents, YAML_NODES);
  if (duplicate !== null) return `is not valid YAML: ${duplicate.message}`;
  let data: unknown;
  try {
    data = document.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    return `is not valid YAML: ${cause instanceof Error ? cause.message : String(cause)}`;
  }
  const raw = (data ?? {}) as Record<string, unknown>;
  const archive = {
    phaseNumber: raw['phase_number'],
    title: raw['title'] ?? null,
    description: raw['description'] ?? null,
    todos: raw['todos'],
  };
  const problem = archiveProblem(archive);
  return problem ?? (archive as ArchivedPhase);
}
