/**
 * One read kept in memory while the change listener proves it hears (`setListening`), shared by
 * concurrent callers and cleared whole by `invalidate`; otherwise every call reads the database.
 * A read that started before a change is not kept, so a slow read never puts an old value back.
 */
export class KeptRead<T> {
  private kept: Promise<T> | undefined;
  private generation = 0;
  private listening = false;
  /** Told of every database read (tests count them). */
  onRead: () => void = () => {};

  constructor(private readonly read: () => Promise<T>) {}

  /** The value, from memory when kept. */
  get(): Promise<T> {
    if (this.kept) return this.kept;
    const startedAt = this.generation;
    this.onRead();
    const reading = this.read();
    if (this.listening) {
      this.kept = reading;
      // A failed read is not kept; nor one a change overtook (it is cleared with the rest).
      reading.catch(() => {
        if (this.generation === startedAt) this.kept = undefined;
      });
    }
    return reading;
  }

  /** It changed (NOTIFY, or a write in this process): read again. */
  invalidate(): void {
    this.generation += 1;
    this.kept = undefined;
  }

  /** While changes cannot be heard (the listener is reconnecting), nothing is kept. */
  setListening(listening: boolean): void {
    this.listening = listening;
    this.invalidate();
  }
}
