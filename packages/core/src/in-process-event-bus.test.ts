import { describe, expect, it } from 'vitest';
import { InProcessEventBus } from './in-process-event-bus.ts';
import { PlankitError } from './plankit-error.ts';

type Ping = { type: 'Ping'; n: number };
type Pong = { type: 'Pong' };

describe('InProcessEventBus', () => {
  it('delivers synchronously, in subscription order, only to subscribers of the type', () => {
    const bus = new InProcessEventBus<Ping | Pong>();
    const seen: string[] = [];
    bus.subscribe('Ping', (event) => seen.push(`a${event.n}`));
    bus.subscribe('Pong', () => seen.push('pong'));
    bus.subscribe('Ping', (event) => seen.push(`b${event.n}`));
    const result = bus.publish({ type: 'Ping', n: 1 });
    expect(seen).toEqual(['a1', 'b1']);
    expect(result).toEqual({ delivered: 2, failures: [] });
  });

  it('reports a failing handler and still runs the handlers after it', () => {
    const bus = new InProcessEventBus<Ping>();
    const seen: number[] = [];
    const boom = new Error('boom');
    bus.subscribe('Ping', () => {
      throw boom;
    });
    bus.subscribe('Ping', (event) => seen.push(event.n));
    const result = bus.publish({ type: 'Ping', n: 2 });
    expect(seen).toEqual([2]);
    expect(result.delivered).toBe(2);
    expect(result.failures).toEqual([{ type: 'Ping', error: boom }]);
    expect(Object.isFrozen(result.failures)).toBe(true);
  });

  it('unsubscribes, harmlessly twice, and counts no delivery without subscribers', () => {
    const bus = new InProcessEventBus<Ping>();
    const seen: number[] = [];
    const off = bus.subscribe('Ping', (event) => seen.push(event.n));
    off();
    off();
    expect(bus.publish({ type: 'Ping', n: 3 })).toEqual({ delivered: 0, failures: [] });
    expect(seen).toEqual([]);
  });

  it('lets one handler subscribe twice and removes only that subscription', () => {
    const bus = new InProcessEventBus<Ping>();
    const seen: number[] = [];
    const handler = (event: Ping) => seen.push(event.n);
    const off = bus.subscribe('Ping', handler);
    bus.subscribe('Ping', handler);
    off();
    bus.publish({ type: 'Ping', n: 4 });
    expect(seen).toEqual([4]);
  });

  it('refuses a non-function handler and an event without a type', () => {
    const bus = new InProcessEventBus<Ping>();
    expect(() => bus.subscribe('Ping', 5 as never)).toThrow(PlankitError);
    expect(() => bus.publish({} as never)).toThrow(/event must be an object with a string type/);
  });
});
