/** A plain object (not null, not an array): what a host's JSON object arrives as. */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
