/**
 * The files of a strategic/tactical job and of a planning workshop, inside one workspace
 * folder (Node only): `todos.yaml`, `archive/phase_N.yaml`, `workspace.md` and the
 * append-only `planning/meeting.jsonl`. Every path stays inside the root.
 *
 * @packageDocumentation
 * @module @plankit/adapters/workspace
 */

export type {
  MeetingEntry,
  MeetingRead,
  TornLine,
} from './meeting-log.ts';
export type {
  ListOptions,
  MeetingAppend,
  OversizedFile,
  ReadTextOptions,
  TodosConsumption,
  Workspace,
  WorkspaceEntry,
  WorkspaceOptions,
  WrittenFile,
} from './open-workspace.ts';
export { openWorkspace } from './open-workspace.ts';
export type { ArchivedPhase, TodosFile, TodosFileItem } from './phase-yaml.ts';
export type { WorkspaceErrorCode, WorkspaceErrorOptions } from './workspace-error.ts';
export { WorkspaceError } from './workspace-error.ts';
