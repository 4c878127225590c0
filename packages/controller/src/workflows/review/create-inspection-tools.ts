import { defineTool, type Result, type Tool, ToolValidationError } from '@plankit/core';
import { clipText, isRecord, plural } from '@plankit/core/internal-unstable';
import * as z from 'zod';
import { argumentError, checkOptions } from '../internal/checks.ts';
import type { WorkspaceProblem } from '../phases/create-phase-tools.ts';
import type { PhaseJob } from '../phases/phase-job.ts';
import type { Todo } from '../phases/todo.ts';
import type { OversizedFile } from '../phases/validate-todos.ts';

/** One entry of a workspace listing. @public */
export interface WorkspaceEntry {
  /** The path, relative to the workspace root, `/`-separated. */
  readonly path: string;
  /** What it is; symlinks are listed, not followed. */
  readonly kind: 'file' | 'directory' | 'symlink';
  /** The size in bytes (0 for folders). */
  readonly bytes: number;
}

/**
 * What the inspection tools need from the workspace: read-only access inside one root.
 * `@plankit/adapters/workspace` implements it over a folder.
 *
 * @public
 */
export interface InspectionFiles {
  /** A file's text, null when missing, or `{ kind: 'oversized', bytes }` over `maxBytes`. */
  readText(
    path: string,
    options?: { readonly maxBytes?: number | undefined },
  ): Promise<Result<string | OversizedFile | null, WorkspaceProblem>>;
  /** The entries under a folder, recursively, sorted by path. */
  list(
    path?: string,
    options?: { readonly maxEntries?: number | undefined },
  ): Promise<Result<readonly WorkspaceEntry[], WorkspaceProblem>>;
}

/** Options of {@link createInspectionTools}. @public */
export interface InspectionToolsOptions {
  /** The job inspected: the job itself, or a function returning its latest state. */
  readonly job: PhaseJob | (() => PhaseJob | Promise<PhaseJob>);
  /** The job's workspace. */
  readonly files: InspectionFiles;
  /** The plan file `read_plan` reads; `main_plan.md` by default. */
  readonly planPath?: string | undefined;
}

/** Parameters of `get_todos`. @public */
export interface GetTodosParams {
  /** An archived tactical phase's number; the current todos when left out. */
  readonly phase?: number | undefined;
}

/** Parameters of `get_trace`. @public */
export interface GetTraceParams {
  /** How many of the last steps to show, 1-200; 20 by default. */
  readonly last?: number | undefined;
}

/** Parameters of `read_workspace_file`. @public */
export interface ReadWorkspaceFileParams {
  /** The file's path, relative to the workspace root. */
  readonly path: string;
}

/** Parameters of `list_workspace_files`. @public */
export interface ListWorkspaceFilesParams {
  /** A folder, relative to the workspace root; the root when left out. */
  readonly path?: string | undefined;
}

/** Parameters of `search_workspace`. @public */
export interface SearchWorkspaceParams {
  /** The text to find, 1-200 characters, case-insensitive. */
  readonly query: string;
  /** A folder to search; the whole workspace when left out. */
  readonly path?: string | undefined;
}

/**
 * The read-only inspection tools, in order: `get_job`, `get_todos`, `get_trace`, `read_plan`,
 * `read_workspace_file`, `list_workspace_files`, `search_workspace`. Each answers with a
 * one-line message and, as its value, the text it read (null when there is none): host
 * adapters show a read-only tool's value after its message.
 *
 * @public
 */
export type InspectionTools = readonly [
  Tool<Record<string, never>, string | null>,
  Tool<GetTodosParams, string | null>,
  Tool<GetTraceParams, string | null>,
  Tool<Record<string, never>, string | null>,
  Tool<ReadWorkspaceFileParams, string | null>,
  Tool<ListWorkspaceFilesParams, string | null>,
  Tool<SearchWorkspaceParams, string | null>,
];

const OPTION_KEYS: ReadonlySet<string> = new Set(['job', 'files', 'planPath']);
const READ_LIMIT = 256 * 1024;
const LIST_LIMIT = 200;
const SEARCH_FILES = 200;
const SEARCH_MATCHES = 50;
const ARCHIVE = /^archive\/phase_([1-9][0-9]*)\.yaml$/;

function refused(message: string, field = 'path'): ToolValidationError {
  return new ToolValidationError(message, {
    code: 'schema',
    field,
    issues: [{ path: field, message }],
  });
}

function ok<T>(result: Result<T, WorkspaceProblem>, field?: string): T {
  if (!result.ok) throw refused(result.error.message, field);
  return result.value;
}

function when(at: number): string {
  return Math.abs(at) <= 8.64e15 ? new Date(at).toISOString() : String(at);
}

function todoLine(todo: Todo): string {
  const mark = todo.status === 'completed' ? 'x' : todo.status === 'in_progress' ? '~' : ' ';
  return `- [${mark}] ${todo.id}. ${todo.content}`;
}

function jobStatus(job: PhaseJob): string {
  const phase = `${job.phase} phase ${job.phaseNumber} (${job.phaseKind})`;
  switch (job.machine.status) {
    case 'running':
      return `running ${phase}`;
    case 'waiting':
      return `waiting for review of the plan made in ${phase}`;
    case 'done':
      return `complete, after ${phase}`;
    case 'frozen':
      return `frozen in ${phase}`;
    default: {
      const unknown: never = job.machine.status;
      return String(unknown);
    }
  }
}

/**
 * Read-only tools for a review companion chat, scoped to one job: its state, its
 * todos (current and archived), its trace, its plan and its workspace files. They have no
 * result type, so they change no session state (the session only logs the call); the chat
 * cannot reach another job or a path outside the workspace. Expose them over MCP with `registerMcpTools` like any plankit tool.
 *
 * @throws WorkflowError `argument_invalid` for bad options
 * @example
 * ```ts
 * const tools = createInspectionTools({ job: () => loadJob('job-42'), files: workspace });
 * registerMcpTools(server, tools, { session }); // @plankit/adapters/mcp
 * ```
 * @public
 */
export function createInspectionTools(options: InspectionToolsOptions): InspectionTools {
  checkOptions('createInspectionTools', options, OPTION_KEYS);
  const { job: source, files, planPath = 'main_plan.md' } = options;
  if (
    typeof source !== 'function' &&
    !(isRecord(source) && source.format === 'plankit.phase-job')
  ) {
    throw argumentError(
      'createInspectionTools',
      'options.job',
      'must be a phase job or a function returning one',
    );
  }
  if (
    !isRecord(files) ||
    typeof files.readText !== 'function' ||
    typeof files.list !== 'function'
  ) {
    throw argumentError('createInspectionTools', 'options.files', 'must have readText and list');
  }
  if (typeof planPath !== 'string' || planPath === '') {
    throw argumentError('createInspectionTools', 'options.planPath', 'must be a non-empty path');
  }
  const current = async (): Promise<PhaseJob> =>
    typeof source === 'function' ? await source() : source;

  const archivedPhases = async (): Promise<number[]> => {
    const listed = await files.list('archive', { maxEntries: 1000 });
    if (!listed.ok) return [];
    const numbers: number[] = [];
    for (const entry of listed.value) {
      const match = ARCHIVE.exec(entry.path);
      if (match !== null && entry.kind === 'file') numbers.push(Number(match[1]));
    }
    return numbers.sort((a, b) => a - b);
  };

  const answer = (message: string, text: string | null = null) => ({ message, value: text });

  const getJob = defineTool({
    name: 'get_job',
    description: "The job's status: phase, review state and feedback, and todo progress.",
    parameters: z.strictObject({}),
    handler: async () => {
      const job = await current();
      const done = job.todos.filter((todo) => todo.status === 'completed').length;
      const { review, settings } = job;
      const lines = [`Todos: ${done} of ${job.todos.length} completed.`];
      if (review.status !== 'off') {
        const limit = settings.reviewLimit === null ? '' : ` (soft limit ${settings.reviewLimit})`;
        lines.push(`Review: ${review.status}, ${plural(review.cycles, 'change request')}${limit}.`);
      }
      for (const entry of review.feedback) {
        lines.push(
          `Feedback, cycle ${entry.cycle} (${when(entry.at)}): ${clipText(entry.feedback, 2000)}`,
        );
      }
      return answer(`Job ${job.jobId}: ${jobStatus(job)}.`, lines.join('\n'));
    },
  });

  const getTodos = defineTool({
    name: 'get_todos',
    description: 'The todos of the current phase, or of an archived tactical phase by number.',
    parameters: z.strictObject({
      phase: z.number().int().min(1).optional().describe('An archived tactical phase number.'),
    }),
    handler: async ({ phase }) => {
      const job = await current();
      const archived = await archivedPhases();
      const list = archived.length === 0 ? 'none' : archived.join(', ');
      if (phase !== undefined) {
        const text = ok(
          await files.readText(`archive/phase_${phase}.yaml`, { maxBytes: READ_LIMIT }),
        );
        if (typeof text !== 'string') {
          throw refused(`No archive of phase ${phase}; archived phases: ${list}.`, 'phase');
        }
        return answer(`archive/phase_${phase}.yaml of job ${job.jobId}:`, text);
      }
      const done = job.todos.filter((todo) => todo.status === 'completed').length;
      const title = job.title === null ? '' : ` "${job.title}"`;
      const heading = `${job.phase === 'strategic' ? 'Strategic' : 'Tactical'} phase ${job.phaseNumber}${title} (${job.phaseKind}) of job ${job.jobId}, ${done} of ${job.todos.length} todos completed:`;
      const lines = job.todos.map(todoLine);
      if (job.handoff !== null) {
        lines.push(
          '',
          `Todos for the next tactical phase, waiting for review${job.handoff.phase === null ? '' : ` ("${job.handoff.phase}")`}:`,
        );
        for (const todo of job.handoff.todos) lines.push(`- ${todo.id}. ${todo.content}`);
      }
      lines.push('', `Archived tactical phases: ${list}.`);
      return answer(heading, lines.join('\n'));
    },
  });

  const getTrace = defineTool({
    name: 'get_trace',
    description: "The job's trace: phase changes, rejected hand-offs and review decisions.",
    parameters: z.strictObject({
      last: z
        .number()
        .int()
        .min(1)
        .max(200)
        .optional()
        .describe('How many of the last steps; 20 by default.'),
    }),
    handler: async ({ last = 20 }) => {
      const job = await current();
      const { trace } = job.machine;
      const shown = trace.slice(-last);
      const first = trace.length - shown.length;
      const part = shown.length < trace.length ? `, the last ${shown.length} shown` : '';
      const heading = `Trace of job ${job.jobId}: ${plural(trace.length, 'step')}${part}.`;
      const lines: string[] = [];
      for (const [index, entry] of shown.entries()) {
        const reason =
          entry.reason === null ? '' : `: ${clipText(entry.reason.replace(/\s+/g, ' '), 300)}`;
        lines.push(
          `${first + index + 1}. ${when(entry.at)} ${entry.from} --${entry.outcome ?? entry.kind}--> ${entry.to}${reason}`,
        );
      }
      return answer(heading, lines.length === 0 ? null : lines.join('\n'));
    },
  });

  const readPlan = defineTool({
    name: 'read_plan',
    description: "The job's plan file.",
    parameters: z.strictObject({}),
    handler: async () => {
      const text = ok(await files.readText(planPath, { maxBytes: READ_LIMIT }));
      if (text === null) return answer(`${planPath} does not exist yet.`);
      if (typeof text !== 'string')
        throw new ToolValidationError(
          `${planPath} is ${text.bytes} bytes, over the ${READ_LIMIT}-byte limit.`,
          { code: 'text_too_long' },
        );
      return answer(`${planPath}:`, text);
    },
  });

  const readWorkspaceFile = defineTool({
    name: 'read_workspace_file',
    description: "Read a file of the job's workspace by its relative path.",
    parameters: z.strictObject({
      path: z.string().min(1).max(1024).describe('Relative to the workspace root.'),
    }),
    handler: async ({ path }) => {
      const text = ok(await files.readText(path, { maxBytes: READ_LIMIT }));
      if (text === null) throw refused(`File not found: ${path}.`);
      if (typeof text !== 'string') {
        throw new ToolValidationError(
          `${path} is ${text.bytes} bytes, over the ${READ_LIMIT}-byte limit.`,
          { code: 'text_too_long', field: 'path' },
        );
      }
      return answer(`${path}:`, text);
    },
  });

  const listWorkspaceFiles = defineTool({
    name: 'list_workspace_files',
    description: "List the files and folders of the job's workspace, or of one folder.",
    parameters: z.strictObject({
      path: z.string().min(1).max(1024).optional().describe('A folder; the root by default.'),
    }),
    handler: async ({ path = '.' }) => {
      const entries = ok(await files.list(path, { maxEntries: LIST_LIMIT + 1 }));
      if (entries.length === 0) return answer(`${path} is empty.`);
      const lines = entries
        .slice(0, LIST_LIMIT)
        .map((entry) =>
          entry.kind === 'directory'
            ? `${entry.path}/`
            : entry.kind === 'symlink'
              ? `${entry.path} (symlink)`
              : `${entry.path} (${entry.bytes} bytes)`,
        );
      if (entries.length > LIST_LIMIT)
        lines.push(`(the first ${LIST_LIMIT} entries; list a folder to see more)`);
      return answer(`Entries under ${path}:`, lines.join('\n'));
    },
  });

  const searchWorkspace = defineTool({
    name: 'search_workspace',
    description: "Find lines containing a text in the job's workspace files, case-insensitive.",
    parameters: z.strictObject({
      query: z.string().min(1).max(200).describe('The text to find.'),
      path: z
        .string()
        .min(1)
        .max(1024)
        .optional()
        .describe('A folder to search; the whole workspace by default.'),
    }),
    handler: async ({ query, path = '.' }) => {
      const entries = ok(await files.list(path, { maxEntries: 1000 }));
      const needle = query.toLowerCase();
      const matches: string[] = [];
      let searched = 0;
      for (const entry of entries) {
        if (entry.kind !== 'file' || entry.bytes > READ_LIMIT) continue;
        if (searched === SEARCH_FILES || matches.length === SEARCH_MATCHES) break;
        searched++;
        const text = await files.readText(entry.path, { maxBytes: READ_LIMIT });
        if (!text.ok || typeof text.value !== 'string') continue;
        for (const [index, line] of text.value.split('\n').entries()) {
          if (!line.toLowerCase().includes(needle)) continue;
          matches.push(`${entry.path}:${index + 1}: ${clipText(line.trim(), 200)}`);
          if (matches.length === SEARCH_MATCHES) break;
        }
      }
      if (matches.length === 0)
        return answer(`No line contains "${query}" (${plural(searched, 'file')} searched).`);
      const more = matches.length === SEARCH_MATCHES ? ` (the first ${SEARCH_MATCHES})` : '';
      const count = `${matches.length} ${matches.length === 1 ? 'line contains' : 'lines contain'}`;
      return answer(`${count} "${query}"${more}:`, matches.join('\n'));
    },
  });

  return Object.freeze([
    getJob,
    getTodos,
    getTrace,
    readPlan,
    readWorkspaceFile,
    listWorkspaceFiles,
    searchWorkspace,
  ]) as InspectionTools;
}
