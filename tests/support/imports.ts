import { expect, vi } from "vitest";
import type { ImportKind, ImportRecord } from "../../src/contract/imports";
import type { TestAccount } from "./accounts";
import { multipart } from "./multipart";
import type { TestApp } from "./test-app";

/** Uploads `xml` as an ACES or PIES file (`POST /api/imports/{kind}`) as `who`. */
export function uploadImport(
  t: TestApp,
  kind: ImportKind,
  xml: string,
  who: TestAccount,
  filename: string,
) {
  const body = multipart({
    data: Buffer.from(xml),
    filename,
    type: "application/xml",
    field: "file",
  });
  return t.app.inject({
    method: "POST",
    url: `/api/imports/${kind}`,
    payload: body.payload,
    headers: { ...body.headers, cookie: who.cookie },
  });
}

/** Starts a previewed import as `admin` and waits for its job to end (done or failed). */
export async function startImportAndWait(
  t: TestApp,
  admin: TestAccount,
  id: string,
): Promise<ImportRecord> {
  const started = await t.app.inject({
    method: "POST",
    url: `/api/imports/${id}/start`,
    headers: { cookie: admin.cookie },
  });
  expect(started.statusCode).toBe(202);
  expect(started.json<ImportRecord>().status).toBe("queued");
  return vi.waitFor(
    async () => {
      const res = await t.app.inject({
        url: `/api/imports/${id}`,
        headers: { cookie: admin.cookie },
      });
      const record = res.json<ImportRecord>();
      if (record.status !== "done" && record.status !== "failed") throw new Error(record.status);
      return record;
    },
    { timeout: 30_000, interval: 100 },
  );
}

/**
 * An upload's answer: created and previewed (nothing imported yet), of `kind` and `brand` from
 * `fileName`, with `items` to import and no result; `more` for the test's own fields. Answers it.
 */
export function expectPreviewed(
  res: { statusCode: number; json: <T>() => T },
  expected: { kind: ImportKind; brand: string; fileName: string; items: number },
  more: Partial<ImportRecord> = {},
): ImportRecord {
  expect(res.statusCode).toBe(201);
  const record = res.json<ImportRecord>();
  expect(record).toMatchObject({
    kind: expected.kind,
    brand: expected.brand,
    fileName: expected.fileName,
    status: "previewed",
    progress: { done: 0, total: expected.items },
    result: null,
    ...more,
  });
  return record;
}
