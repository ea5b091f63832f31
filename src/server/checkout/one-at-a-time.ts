/**
 * Tasks of one key run one after another, in the order they were given; tasks of different keys
 * run at once. A task starts once the one before it settled, whether it succeeded or failed.
 * Nothing is kept for a key with no task left.
 */
export function oneAtATime() {
  const last = new Map<string, Promise<void>>();
  return <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const before = last.get(key);
    // (a task that throws at once rejects its promise, as an async one does)
    const result = before ? before.then(task) : new Promise<T>((resolve) => resolve(task()));
    const settled = result.then(
      () => {},
      () => {},
    );
    last.set(key, settled);
    void settled.then(() => {
      if (last.get(key) === settled) last.delete(key);
    });
    return result;
  };
}
