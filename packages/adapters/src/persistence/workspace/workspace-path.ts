import type { Result } from '@plankit/core';
import { clipText } from '@plankit/core/internal-unstable';
import { WorkspaceError } from './workspace-error.ts';

/** The longest workspace path, in characters. */
export const MAX_PATH = 1024;

function invalid(path: string, rule: string): Result<never, WorkspaceError> {
  const shown = JSON.stringify(clipText(path, 80));
  return {
    ok: false,
    error: new WorkspaceError('path_invalid', `Path ${shown} ${rule}.`, { path, field: 'path' }),
  };
}

/**
 * The segments of a workspace path, checked lexically: relative, `/`-separated, at most 1,024
 * characters, no NUL, no backslash, no drive letter, no `..` segment. `.` and empty segments
 * are dropped, so `.` is the root itself (no segments). Symlinks are checked later, on disk.
 */
export function pathSegments(path: unknown): Result<readonly string[], WorkspaceError> {
  if (typeof path !== 'string' || path.length === 0)
    return invalid(String(path), 'must be a non-empty string');
  if (path.length > MAX_PATH) return invalid(path, `is longer than ${MAX_PATH} characters`);
  if (path.includes('\0')) return invalid(path, 'contains a NUL byte');
  if (path.includes('\\')) return invalid(path, 'contains a backslash; use / between folders');
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) {
    return invalid(path, 'is absolute; use a path relative to the workspace root');
  }
  const segments = path.split('/').filter((segment) => segment !== '' && segment !== '.');
  if (segments.includes('..'))
    return invalid(path, 'contains "..", which could leave the workspace');
  return { ok: true, value: segments };
}
