// Mutable collections whose every change can be undone. The reducer changes a scope in place so
// that an event costs the same at the millionth event of a scope as at the first; a rejected event
// and a batch preflight must still leave the scope exactly as it was, so each change records its
// inverse in the scope's journal, and rolling the journal back restores the prior state exactly.

export class Journal {
  private readonly undos: (() => void)[] = [];
  private readonly afterForgetting = new Set<() => void>();

  /** A position to roll back to. */
  get length(): number {
    return this.undos.length;
  }

  record(undo: () => void): void {
    this.undos.push(undo);
  }

  /** Undoes every change recorded after `mark`, newest first. */
  rollback(mark: number): void {
    while (this.undos.length > mark) (this.undos.pop() as () => void)();
  }

  /** Keeps every recorded change for good; nothing before this point can be undone any more. */
  forget(): void {
    this.undos.length = 0;
    for (const task of this.afterForgetting) task();
    this.afterForgetting.clear();
  }

  /** Runs `task` at the next `forget` (housekeeping that must not run while changes can be undone). */
  whenForgotten(task: () => void): void {
    this.afterForgetting.add(task);
  }
}

interface Slot<V> {
  value: V;
  removed: boolean;
}

/**
 * Records in insertion order with a unique key each: O(1) lookup, append, replacement in place and
 * removal. A removed record leaves a tombstone, so undoing the removal puts it back where it was;
 * tombstones are dropped by `compact`, which runs only when nothing can be undone.
 */
export class KeyedRecords<V> {
  private slots: Slot<V>[] = [];
  private readonly byKey = new Map<string, Slot<V>>();
  private removedCount = 0;
  private readonly compactLater = (): void => this.compact();

  constructor(private readonly journal: Journal) {}

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): V | undefined {
    return this.byKey.get(key)?.value;
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  /**
   * Appends a record. The reducer adds a key only after checking it is absent; should a state
   * from elsewhere repeat one, lookups find the first record, as a search of the list would.
   */
  add(key: string, value: V): void {
    const slot: Slot<V> = { value, removed: false };
    this.slots.push(slot);
    if (!this.byKey.has(key)) this.byKey.set(key, slot);
    this.journal.record(() => {
      this.slots.pop();
      if (this.byKey.get(key) === slot) this.byKey.delete(key);
    });
  }

  /** Replaces a present record, keeping its position. */
  replace(key: string, value: V): void {
    const slot = this.byKey.get(key);
    if (slot === undefined) throw new Error(`no record ${key} to replace`);
    const previous = slot.value;
    slot.value = value;
    this.journal.record(() => {
      slot.value = previous;
    });
  }

  remove(key: string): void {
    const slot = this.byKey.get(key);
    if (slot === undefined) return;
    slot.removed = true;
    this.byKey.delete(key);
    this.removedCount += 1;
    this.journal.record(() => {
      slot.removed = false;
      this.byKey.set(key, slot);
      this.removedCount -= 1;
    });
    this.journal.whenForgotten(this.compactLater);
  }

  /** The present records in insertion order (a fresh array). */
  values(): V[] {
    const values: V[] = [];
    for (const slot of this.slots) if (!slot.removed) values.push(slot.value);
    return values;
  }

  /** Drops tombstones once they are most of the list (only when nothing can be undone). */
  private compact(): void {
    if (this.removedCount < 16 || this.removedCount * 2 < this.slots.length) return;
    this.slots = this.slots.filter((slot) => !slot.removed);
    this.removedCount = 0;
  }
}

/** Records that are only ever appended. */
export class AppendOnly<V> {
  private readonly items: V[] = [];

  constructor(private readonly journal: Journal) {}

  get length(): number {
    return this.items.length;
  }

  push(value: V): void {
    this.items.push(value);
    this.journal.record(() => {
      this.items.pop();
    });
  }

  /** The records in order (a fresh array). */
  values(): V[] {
    return this.items.slice();
  }
}

/** A keyed lookup without order. */
export class JournaledMap<V> {
  private readonly entries = new Map<string, V>();

  constructor(private readonly journal: Journal) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    const had = this.entries.has(key);
    const previous = this.entries.get(key);
    this.entries.set(key, value);
    this.journal.record(() => {
      if (had) this.entries.set(key, previous as V);
      else this.entries.delete(key);
    });
  }

  delete(key: string): void {
    if (!this.entries.has(key)) return;
    const previous = this.entries.get(key) as V;
    this.entries.delete(key);
    this.journal.record(() => {
      this.entries.set(key, previous);
    });
  }
}

/** How many present records carry each key (for "is any … still …" questions in O(1)). */
export class Counts {
  private readonly counts = new Map<string, number>();

  constructor(private readonly journal: Journal) {}

  get(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  add(key: string, delta: number): void {
    const next = this.get(key) + delta;
    if (next === 0) this.counts.delete(key);
    else this.counts.set(key, next);
    this.journal.record(() => {
      const back = this.get(key) - delta;
      if (back === 0) this.counts.delete(key);
      else this.counts.set(key, back);
    });
  }
}

/** Keys grouped under an owner key (the records a frame owns), so a group can be dropped at once. */
export class Groups {
  private readonly groups = new Map<string, Set<string>>();

  constructor(private readonly journal: Journal) {}

  add(group: string, key: string): void {
    let members = this.groups.get(group);
    if (members === undefined) {
      members = new Set();
      this.groups.set(group, members);
      this.journal.record(() => {
        this.groups.delete(group);
      });
    }
    if (members.has(key)) return;
    const set = members;
    set.add(key);
    this.journal.record(() => {
      set.delete(key);
    });
  }

  delete(group: string, key: string): void {
    const members = this.groups.get(group);
    if (members === undefined || !members.delete(key)) return;
    this.journal.record(() => {
      members.add(key);
    });
  }

  /** The group's keys in insertion order. */
  keys(group: string): readonly string[] {
    return [...(this.groups.get(group) ?? [])];
  }

  /** Removes the group and returns its keys. */
  take(group: string): readonly string[] {
    const members = this.groups.get(group);
    if (members === undefined) return [];
    this.groups.delete(group);
    this.journal.record(() => {
      this.groups.set(group, members);
    });
    return [...members];
  }
}
