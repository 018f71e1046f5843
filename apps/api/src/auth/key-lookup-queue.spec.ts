import { KeyLookupQueue, KeyLookupsBusyError } from './key-lookup-queue';

/** A task that runs until released, counting how many such tasks run at once. */
function gauge() {
  let running = 0;
  let most = 0;
  const task = (gate: Promise<void>) => async () => {
    most = Math.max(most, ++running);
    await gate;
    running--;
  };
  return { task, most: () => most };
}

function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('KeyLookupQueue', () => {
  it('hands a finished slot to the next waiting look-up, never to a caller that arrives in between', async () => {
    const queue = new KeyLookupQueue(1, 10);
    const { task, most } = gauge();
    const first = gate();
    const rest = gate();
    const runs = [queue.run(false, task(first.promise)), queue.run(false, task(rest.promise))];
    first.open();
    // Newcomers at each of the next microtask turns: one lands between the first task's end and the
    // waiter's resuming, the moment a freed count used to let it start beside the waiter just woken.
    let turn: Promise<unknown> = Promise.resolve();
    for (let i = 0; i < 6; i++) turn = turn.then(() => runs.push(queue.run(false, task(rest.promise))));
    await turn;
    rest.open();
    await Promise.all(runs);
    expect(most()).toBe(1);
  });

  it('refuses an unknown key past the waiting limit, and lets a known key go ahead of the waiting', async () => {
    const queue = new KeyLookupQueue(1, 1);
    const order: string[] = [];
    const hold = gate();
    const running = queue.run(false, () => hold.promise);
    const waiting = queue.run(false, async () => void order.push('waiting'));
    await expect(queue.run(false, async () => undefined)).rejects.toThrow(KeyLookupsBusyError);
    const known = queue.run(true, async () => void order.push('known'));
    hold.open();
    await Promise.all([running, waiting, known]);
    expect(order).toEqual(['known', 'waiting']);
  });
});
