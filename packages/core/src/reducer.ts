/**
 * What a reducer receives besides the slice: the dispatched value and where it came from.
 *
 * @public
 */
export interface ReducerEvent<E> {
  /** Name of the data type the value was dispatched as. */
  readonly dataType: string;
  /** The dispatched value, deeply frozen. */
  readonly value: E;
  /** The session being reduced. */
  readonly sessionId: string;
  /** When, in epoch milliseconds; reducers use this instead of reading a clock. */
  readonly at: number;
}

/**
 * A pure function from a slice and an event to the next slice. Return the same array to
 * signal "no change". Throw to reject the event: the whole dispatch is then discarded.
 *
 * @public
 */
export type Reducer<T, E = T> = (slice: readonly T[], event: ReducerEvent<E>) => readonly T[];
