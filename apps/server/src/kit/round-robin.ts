/**
 * The items in turns: the first of each group (in the order groups first appear), then the second of each, and so on;
 * within a group the items keep their order. What fair-share work queues are ordered by (e.g. due broadcasts over
 * their platforms).
 */
export function roundRobin<T>(items: readonly T[], groupOf: (item: T) => string): T[] {
  const turnOf = new Map<string, number>();
  const turns = items.map((item, index) => {
    const group = groupOf(item);
    const turn = turnOf.get(group) ?? 0;
    turnOf.set(group, turn + 1);
    return { item, turn, index };
  });
  return turns.sort((a, b) => a.turn - b.turn || a.index - b.index).map(({ item }) => item);
}
