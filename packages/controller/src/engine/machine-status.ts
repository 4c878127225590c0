/**
 * `running`: in a work state. `waiting`: in a wait state (for a person or another system).
 * `frozen`: stopped at a cap until {@link resume}. `done`: in a final state.
 *
 * @public
 */
export type MachineStatus = 'running' | 'waiting' | 'frozen' | 'done';
