/**
 * What a phase is for: `initial` (the job's first plan), `revision` (a plan revised after
 * review feedback), `transition` (between tactical phases) or `tactical` (execution).
 *
 * @public
 */
export type PhaseKind = 'initial' | 'revision' | 'transition' | 'tactical';
