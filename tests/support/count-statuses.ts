/** "20 × 503, 5 × gave up": how many outcomes had each status, in the order first seen. */
export function countStatuses(outcomes: { status: number | string }[]): string {
  const by = new Map<string, number>();
  for (const o of outcomes) by.set(String(o.status), (by.get(String(o.status)) ?? 0) + 1);
  return [...by].map(([s, n]) => `${n} × ${s}`).join(", ");
}
