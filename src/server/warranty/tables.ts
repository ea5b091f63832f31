import { requiredUuidRef, timestampNow, timestampTz, uuidPrimaryKey } from "../db/columns";
import { sql } from "../db/sql";
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  pgSequence,
  pgTable,
  text,
  uuid,
} from "drizzle-orm/pg-core";
import { claimPhotoTypes, claimRemedies, claimStatuses, installers } from "../../contract/warranty";
import { companies } from "../companies/tables";
import { orderItems, orders } from "../orders/tables";
import { returnRequests } from "../returns/tables";
import { user } from "../users/tables";

/** Claim numbers (`WC-10001`): a plain sequence, as a gap costs nothing. */
export const claimSequence = pgSequence("warranty_claim_seq", { startWith: 10001 });

/**
 * The manufacturer's failure codes (admin-editable; seeded by migration 0064): what an
 * inspection found wrong. Retired, never removed, once a claim names one.
 */
export const warrantyFailureCodes = pgTable("warranty_failure_codes", {
  code: text("code").primaryKey(),
  label: text("label").notNull(),
  active: boolean("active").notNull().default(true),
  createdAt: timestampNow("created_at"),
});

/**
 * A warranty claim (docs/warranty.md): units of one shipped order line that failed in use, with
 * the vehicle, the mileages and dates, and where the manufacturer's decision stands.
 */
export const warrantyClaims = pgTable(
  "warranty_claims",
  {
    id: uuidPrimaryKey(),
    number: integer("number")
      .notNull()
      .unique()
      .default(sql`nextval('warranty_claim_seq')`),
    orderId: requiredUuidRef("order_id", () => orders.id, "restrict"),
    /** The order line (order_items.line). */
    line: integer("line").notNull(),
    qty: integer("qty").notNull(),
    /** Who filed it; their company when they filed it (its owners and buyers see it too). */
    userId: text("user_id").references(() => user.id, { onDelete: "set null" }),
    companyId: uuid("company_id").references(() => companies.id, { onDelete: "set null" }),
    claimantName: text("claimant_name").notNull(),
    claimantEmail: text("claimant_email").notNull(),
    status: text("status", { enum: claimStatuses }).notNull().default("submitted"),
    vin: text("vin").notNull(),
    mileageAtInstall: integer("mileage_at_install").notNull(),
    mileageAtFailure: integer("mileage_at_failure").notNull(),
    installedOn: date("installed_on").notNull(),
    failedOn: date("failed_on").notNull(),
    installedBy: text("installed_by", { enum: installers }).notNull(),
    description: text("description").notNull(),
    customerInvoiceRef: text("customer_invoice_ref"),
    /** The last day of the warranty when filed (months from the line's last shipment). */
    warrantyEndsOn: date("warranty_ends_on").notNull(),
    rejectionReason: text("rejection_reason"),
    /** The inspection: its failure code, findings and when (all null until inspected). */
    failureCode: text("failure_code").references(() => warrantyFailureCodes.code, {
      onDelete: "restrict",
    }),
    findings: text("findings"),
    inspectedAt: timestampTz("inspected_at"),
    /** The part asked back: its return (an RMA of the returns flow), once asked. */
    returnId: uuid("return_id")
      .unique()
      .references(() => returnRequests.id, { onDelete: "restrict" }),
    /** The approval's remedy, and the $0 replacement order it placed (null until approved). */
    remedy: text("remedy", { enum: claimRemedies }),
    replacementOrderId: uuid("replacement_order_id")
      .unique()
      .references(() => orders.id, { onDelete: "restrict" }),
    decidedAt: timestampTz("decided_at"),
    filedAt: timestampNow("filed_at"),
    updatedAt: timestampNow("updated_at"),
  },
  (t) => [
    foreignKey({
      columns: [t.orderId, t.line],
      foreignColumns: [orderItems.orderId, orderItems.line],
    }).onDelete("restrict"),
    index("warranty_claims_order_idx").on(t.orderId, t.line),
    index("warranty_claims_status_idx").on(t.status, t.filedAt),
    index("warranty_claims_user_idx").on(t.userId),
    index("warranty_claims_company_idx")
      .on(t.companyId)
      .where(sql`${t.companyId} is not null`),
    check("warranty_claims_qty_positive", sql`${t.qty} > 0`),
    check(
      "warranty_claims_status_valid",
      sql`${t.status} in ('submitted', 'information_requested', 'part_requested', 'part_received', 'inspected', 'approved', 'rejected')`,
    ),
    check("warranty_claims_installer_valid", sql`${t.installedBy} in ('self', 'garage', 'other')`),
    check(
      "warranty_claims_mileage_valid",
      sql`${t.mileageAtInstall} >= 0 and ${t.mileageAtFailure} >= ${t.mileageAtInstall}`,
    ),
    check("warranty_claims_dates_valid", sql`${t.failedOn} >= ${t.installedOn}`),
    check(
      "warranty_claims_remedy_valid",
      sql`${t.remedy} is null or ${t.remedy} in ('replacement', 'refund')`,
    ),
    check(
      "warranty_claims_approved_whole",
      sql`(${t.status} = 'approved') = (${t.remedy} is not null) and coalesce(${t.remedy} = 'replacement', false) = (${t.replacementOrderId} is not null)`,
    ),
    check(
      "warranty_claims_inspection_whole",
      sql`(${t.failureCode} is null) = (${t.inspectedAt} is null) and (${t.findings} is null) = (${t.inspectedAt} is null)`,
    ),
  ],
);

/**
 * A claimant's photo of the failed part (docs/warranty.md "Photos"): the file is in
 * DATA_DIR/warranty-photos under `file_name`, never in the public uploads folder.
 */
export const warrantyClaimPhotos = pgTable(
  "warranty_claim_photos",
  {
    id: uuidPrimaryKey(),
    claimId: requiredUuidRef("claim_id", () => warrantyClaims.id, "cascade"),
    fileName: text("file_name").notNull().unique(),
    contentType: text("content_type", { enum: claimPhotoTypes }).notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    createdAt: timestampNow("created_at"),
  },
  (t) => [
    index("warranty_claim_photos_claim_idx").on(t.claimId, t.createdAt),
    check("warranty_claim_photos_size_positive", sql`${t.sizeBytes} > 0`),
    check(
      "warranty_claim_photos_type_valid",
      sql`${t.contentType} in ('image/jpeg', 'image/png', 'image/webp')`,
    ),
  ],
);

/** A claim's history, oldest first: messages of either side, and each change of status. */
export const warrantyClaimEvents = pgTable(
  "warranty_claim_events",
  {
    id: uuidPrimaryKey(),
    claimId: requiredUuidRef("claim_id", () => warrantyClaims.id, "cascade"),
    side: text("side", { enum: ["customer", "store"] }).notNull(),
    author: text("author").notNull(),
    body: text("body"),
    status: text("status", { enum: claimStatuses }),
    at: timestampNow("at"),
  },
  (t) => [
    index("warranty_claim_events_claim_idx").on(t.claimId, t.at),
    check("warranty_claim_events_side_valid", sql`${t.side} in ('customer', 'store')`),
    check("warranty_claim_events_something", sql`${t.body} is not null or ${t.status} is not null`),
  ],
);

/**
 * The claims' deadlines an admin saved (docs/warranty.md "Deadlines and reminders"): one row,
 * id 1, written by `deadline-settings.ts` alone. No row: the store's defaults
 * (WARRANTY_DEADLINE_DEFAULTS) are in force.
 */
export const warrantyDeadlineSettings = pgTable(
  "warranty_deadline_settings",
  {
    id: integer("id").primaryKey().default(1),
    /** Days the claimant has to answer or send the part back. */
    claimantDays: integer("claimant_days").notNull(),
    /** Days the store has to act. */
    storeDays: integer("store_days").notNull(),
    /** Days before a deadline its reminder is emailed; fewer than either side's days. */
    reminderDays: integer("reminder_days").notNull(),
    updatedAt: timestampNow("updated_at"),
  },
  (t) => [
    check("warranty_deadline_settings_one_row", sql`${t.id} = 1`),
    check(
      "warranty_deadline_settings_days_valid",
      sql`${t.claimantDays} between 1 and 90 and ${t.storeDays} between 1 and 90`,
    ),
    check(
      "warranty_deadline_settings_reminder_valid",
      sql`${t.reminderDays} >= 0 and ${t.reminderDays} < least(${t.claimantDays}, ${t.storeDays})`,
    ),
  ],
);

/**
 * The last deadline reminder of each claim (`deadlines.ts`): for its change of status at `since`,
 * so a claim is reminded once per change of status.
 */
export const warrantyDeadlineReminders = pgTable(
  "warranty_deadline_reminders",
  {
    claimId: requiredUuidRef("claim_id", () => warrantyClaims.id, "cascade").primaryKey(),
    /** The change of status the reminded deadline ran from. */
    since: timestampTz("since").notNull(),
    side: text("side", { enum: ["claimant", "store"] }).notNull(),
    dueOn: date("due_on").notNull(),
    sentAt: timestampNow("sent_at"),
  },
  (t) => [check("warranty_deadline_reminders_side_valid", sql`${t.side} in ('claimant', 'store')`)],
);
