/**
 * A relative, `/`-separated path inside a root: not empty, not absolute, no drive letter, no
 * `..` or empty segment, no backslash, NUL or backtick. The same rule as the workspace module.
 */
export function isRelativePath(path: string): boolean {
  if (path.length === 0 || path.length > 1024) return false;
  if (/[\\\0`]/.test(path) || path.startsWith('/') || /^[A-Za-z]:/.test(path)) return false;
  return path.split('/').every((segment) => segment !== '' && segment !== '..');
}
