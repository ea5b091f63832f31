import { asc, eq, inArray } from "drizzle-orm";
import { orderNumberText } from "../../contract/orders";
import { rmaNumber } from "../../contract/returns";
import { trackingUrl } from "../../contract/shipping-carriers";
import {
  claimNumber,
  claimPhotoPath,
  type Claim,
  type ClaimSummary,
} from "../../contract/warranty";
import { companies } from "../companies/tables";
import type { DbOrTx } from "../db/database";
import { rowsForKeys } from "../db/sql-arrays";
import { orderItems, orders } from "../orders/tables";
import { returnRequests } from "../returns/tables";
import {
  warrantyClaimEvents,
  warrantyClaimPhotos,
  warrantyFailureCodes,
  type warrantyClaims,
} from "./tables";
import { deadlinesOf } from "./deadlines";
import { lotsByLine } from "../shipments/service";

type ClaimRow = typeof warrantyClaims.$inferSelect;

/** Claims as the wire shows them, each with its order's number, part and claimant's company. */
/** `now`: what the deadlines are compared with (overdue or not). */
export async function summaries(
  tx: DbOrTx,
  rows: ClaimRow[],
  now = new Date(),
): Promise<ClaimSummary[]> {
  if (rows.length === 0) return [];
  const orderIds = [...new Set(rows.map((r) => r.orderId))];
  const items = await tx
    .select({
      orderId: orderItems.orderId,
      line: orderItems.line,
      productId: orderItems.productId,
      productName: orderItems.productName,
      partNumber: orderItems.partNumber,
      orderNumber: orders.number,
    })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(inArray(orderItems.orderId, orderIds));
  const codes = [...new Set(rows.flatMap((r) => (r.failureCode ? [r.failureCode] : [])))];
  const labels = await rowsForKeys(codes, (keys) =>
    tx
      .select({ code: warrantyFailureCodes.code, label: warrantyFailureCodes.label })
      .from(warrantyFailureCodes)
      .where(inArray(warrantyFailureCodes.code, keys)),
  );
  const companyIds = [...new Set(rows.flatMap((r) => (r.companyId ? [r.companyId] : [])))];
  const names = await rowsForKeys(companyIds, (ids) =>
    tx
      .select({ id: companies.id, name: companies.name })
      .from(companies)
      .where(inArray(companies.id, ids)),
  );
  const returnIds = rows.flatMap((r) => (r.returnId ? [r.returnId] : []));
  const returns = await rowsForKeys(returnIds, (ids) =>
    tx
      .select({
        id: returnRequests.id,
        rma: returnRequests.rmaNumber,
        status: returnRequests.status,
      })
      .from(returnRequests)
      .where(inArray(returnRequests.id, ids)),
  );
  const replacementIds = rows.flatMap((r) => (r.replacementOrderId ? [r.replacementOrderId] : []));
  const replacements = await rowsForKeys(replacementIds, (ids) =>
    tx.select().from(orders).where(inArray(orders.id, ids)),
  );
  const deadlines = await deadlinesOf(tx, rows, now);
  const lots = await lotsByLine(tx, orderIds);
  return rows.map((r) => {
    const partReturn = returns.find((x) => x.id === r.returnId);
    const replacement = replacements.find((o) => o.id === r.replacementOrderId);
    const item = items.find((i) => i.orderId === r.orderId && i.line === r.line)!;
    return {
      id: r.id,
      number: claimNumber(r.number),
      status: r.status,
      orderId: r.orderId,
      orderNumber: orderNumberText(item.orderNumber),
      line: r.line,
      productId: item.productId,
      productName: item.productName,
      partNumber: item.partNumber,
      lots: lots.get(`${r.orderId}:${r.line}`) ?? [],
      qty: r.qty,
      vin: r.vin,
      mileageAtInstall: r.mileageAtInstall,
      mileageAtFailure: r.mileageAtFailure,
      installedOn: r.installedOn,
      failedOn: r.failedOn,
      installedBy: r.installedBy,
      description: r.description,
      customerInvoiceRef: r.customerInvoiceRef,
      warrantyEndsOn: r.warrantyEndsOn,
      claimant: {
        name: r.claimantName,
        email: r.claimantEmail,
        company: names.find((c) => c.id === r.companyId)?.name ?? null,
      },
      rejectionReason: r.rejectionReason,
      inspection:
        r.failureCode && r.findings && r.inspectedAt
          ? {
              code: r.failureCode,
              label: labels.find((l) => l.code === r.failureCode)?.label ?? r.failureCode,
              findings: r.findings,
              at: r.inspectedAt.toISOString(),
            }
          : null,
      partReturn: partReturn
        ? { id: partReturn.id, rma: rmaNumber(partReturn.rma), status: partReturn.status }
        : null,
      remedy: r.remedy,
      replacementOrder: replacement
        ? {
            id: replacement.id,
            number: orderNumberText(replacement.number),
            status: replacement.status,
            carrier: replacement.carrier,
            trackingNumber: replacement.trackingNumber,
            trackingUrl: trackingUrl(replacement.carrier, replacement.trackingNumber),
          }
        : null,
      filedAt: r.filedAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
      deadline: deadlines.get(r.id) ?? null,
    };
  });
}

/** Claims with their history, oldest event first. */
export async function withEvents(tx: DbOrTx, rows: ClaimRow[], now = new Date()): Promise<Claim[]> {
  const list = await summaries(tx, rows, now);
  if (list.length === 0) return [];
  const events = await tx
    .select()
    .from(warrantyClaimEvents)
    .where(
      inArray(
        warrantyClaimEvents.claimId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(warrantyClaimEvents.at, warrantyClaimEvents.id);
  // One after the other: `tx` may be a transaction's one connection.
  const photos = await tx
    .select()
    .from(warrantyClaimPhotos)
    .where(
      inArray(
        warrantyClaimPhotos.claimId,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(warrantyClaimPhotos.createdAt), asc(warrantyClaimPhotos.id));
  return list.map((c) => ({
    ...c,
    photos: photos
      .filter((p) => p.claimId === c.id)
      .map((p) => ({
        id: p.id,
        contentType: p.contentType,
        size: p.sizeBytes,
        url: claimPhotoPath(c.id, p.id),
        createdAt: p.createdAt.toISOString(),
      })),
    events: events
      .filter((e) => e.claimId === c.id)
      .map((e) => ({
        id: e.id,
        at: e.at.toISOString(),
        side: e.side,
        author: e.author,
        body: e.body,
        status: e.status,
      })),
  }));
}
