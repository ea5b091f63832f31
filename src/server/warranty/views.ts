import { asc, eq, inArray } from "drizzle-orm";
import { orderNumberText } from "../../contract/orders";
import {
  claimNumber,
  claimPhotoPath,
  type Claim,
  type ClaimSummary,
} from "../../contract/warranty";
import { companies } from "../companies/tables";
import type { DbOrTx } from "../db/database";
import { orderItems, orders } from "../orders/tables";
import {
  warrantyClaimEvents,
  warrantyClaimPhotos,
  warrantyFailureCodes,
  type warrantyClaims,
} from "./tables";

type ClaimRow = typeof warrantyClaims.$inferSelect;

/** Claims as the wire shows them, each with its order's number, part and claimant's company. */
export async function summaries(tx: DbOrTx, rows: ClaimRow[]): Promise<ClaimSummary[]> {
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
  const labels =
    codes.length === 0
      ? []
      : await tx
          .select({ code: warrantyFailureCodes.code, label: warrantyFailureCodes.label })
          .from(warrantyFailureCodes)
          .where(inArray(warrantyFailureCodes.code, codes));
  const companyIds = [...new Set(rows.flatMap((r) => (r.companyId ? [r.companyId] : [])))];
  const names =
    companyIds.length === 0
      ? []
      : await tx
          .select({ id: companies.id, name: companies.name })
          .from(companies)
          .where(inArray(companies.id, companyIds));
  return rows.map((r) => {
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
      filedAt: r.filedAt.toISOString(),
      updatedAt: r.updatedAt.toISOString(),
    };
  });
}

/** Claims with their history, oldest event first. */
export async function withEvents(tx: DbOrTx, rows: ClaimRow[]): Promise<Claim[]> {
  const list = await summaries(tx, rows);
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
