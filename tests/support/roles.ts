/** One row of a role table: a request, run as each role, and the status each role should get. */
export interface RoleRow<R extends string> {
  what: string;
  run: (r: R) => Promise<number>;
  expect: Record<R, number>;
}

/**
 * Runs every row as every role in turn; answers what each got and what each should have got as
 * lines ("<what> as <role>: <status>"), for a test to compare whole: one failure lists every miss.
 */
export async function runRoleTable<R extends string>(
  rows: RoleRow<R>[],
  roles: R[],
): Promise<{ got: string[]; want: string[] }> {
  const got: string[] = [];
  const want: string[] = [];
  for (const row of rows) {
    for (const r of roles) {
      got.push(`${row.what} as ${r}: ${await row.run(r)}`);
      want.push(`${row.what} as ${r}: ${row.expect[r]}`);
    }
  }
  return { got, want };
}
