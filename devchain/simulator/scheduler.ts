/** Jobs keyed by slot, run in slot order and, within a slot, in the order they were scheduled. */
export type Job = () => void;

interface Entry {
  slot: number;
  seq: number;
  job: Job;
}

export class Scheduler {
  private heap: Entry[] = [];
  private seq = 0;

  at(slot: number, job: Job): void {
    this.push({ slot, seq: this.seq++, job });
  }

  /** The slot of the earliest job, or undefined when none is left. */
  nextSlot(): number | undefined {
    return this.heap[0]?.slot;
  }

  /** Removes and returns the earliest job if it is due at or before `slot`. */
  take(slot: number): Job | undefined {
    const top = this.heap[0];
    if (!top || top.slot > slot) return undefined;
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    return top.job;
  }

  private before(a: Entry, b: Entry): boolean {
    return a.slot < b.slot || (a.slot === b.slot && a.seq < b.seq);
  }

  private push(e: Entry): void {
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(h[i], h[parent])) break;
      [h[i], h[parent]] = [h[parent], h[i]];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < h.length && this.before(h[l], h[m])) m = l;
      if (r < h.length && this.before(h[r], h[m])) m = r;
      if (m === i) return;
      [h[i], h[m]] = [h[m], h[i]];
      i = m;
    }
  }
}
