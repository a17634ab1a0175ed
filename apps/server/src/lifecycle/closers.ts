/** A step that releases something start-up acquired (a listener, a worker, a connection). */
export type Closer = () => Promise<void> | void;

/**
 * What start-up acquired, released in reverse order: the one list both a start-up that fails half-way and the
 * shutdown run, so nothing is released before what still uses it (the worker before the services its tasks use).
 */
export class Closers {
  private readonly closers: Closer[] = [];

  /** Registers the release of what was just started: it runs before everything registered earlier. */
  add(closer: Closer): void {
    this.closers.push(closer);
  }

  /** Runs every closer, newest first, each once; a failing one does not keep the rest from running. */
  async close(): Promise<void> {
    const errors: unknown[] = [];
    for (let closer = this.closers.pop(); closer; closer = this.closers.pop()) {
      await Promise.resolve()
        .then(closer)
        .catch((error: unknown) => errors.push(error));
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, 'closing the server failed');
  }

  /** Runs `start`; if it throws, closes what was registered so far and rethrows the start-up error. */
  async orClose<T>(start: () => Promise<T>): Promise<T> {
    try {
      return await start();
    } catch (error) {
      await this.close().catch(() => undefined);
      throw error;
    }
  }
}
