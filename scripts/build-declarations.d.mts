/** Writes one bundled `dist/<entry>.d.ts` per entry of the package in `packageDir`. */
export function buildDeclarations(packageDir: string, entries: readonly string[]): Promise<void>;
