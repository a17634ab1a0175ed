/**
 * Start-up steps that run while the server already listens (the demo data): /readyz answers 503 naming them until
 * they finish, so a load balancer or `compose --wait` never sends traffic to a half-seeded instance.
 */
export class Readiness {
  readonly #pending = new Set<string>();

  /** Marks `step` as pending until `work` settles; returns `work`. */
  track<T>(step: string, work: Promise<T>): Promise<T> {
    this.#pending.add(step);
    return work.finally(() => this.#pending.delete(step));
  }

  get pending(): string[] {
    return [...this.#pending];
  }
}
