import { eq } from "drizzle-orm";
import { sql } from "../db/sql";
import type { DbOrTx } from "../db/database";
import { emailBounces, MAX_BOUNCE_ANSWER_LENGTH } from "./tables";

/** An SMTP server's permanent refusal of one recipient. */
export interface SmtpRefusal {
  /** The reply code (550…), when the server gave one. */
  code: number | undefined;
  /** The server's answer as nodemailer reports it (possibly several lines). */
  response: string;
}

/** What is kept of a bounce (the admin sees it). */
export interface EmailBounce {
  bouncedAt: Date;
  answer: string;
}

/**
 * The address a message went to, lower-cased: `to` is a bare address, or "Name <address>".
 * Undefined when there is nothing that looks like an address.
 */
export function recipientAddress(to: string): string | undefined {
  const address = (/<([^<>]+)>\s*$/.exec(to)?.[1] ?? to).trim().toLowerCase();
  return address.includes("@") ? address : undefined;
}

/** The first line of an SMTP answer, cut to what the table keeps. */
export function bounceAnswer(refusal: SmtpRefusal): string {
  const firstLine = refusal.response.split(/\r?\n/, 1)[0]?.trim() ?? "";
  // nodemailer's `response` starts with the code already; a bare message gets it in front.
  const withCode =
    refusal.code !== undefined && !firstLine.startsWith(String(refusal.code))
      ? `${refusal.code} ${firstLine}`.trim()
      : firstLine;
  return (withCode || "refused").slice(0, MAX_BOUNCE_ANSWER_LENGTH);
}

/**
 * Marks the address as bouncing (again moves the date on and keeps the newest answer): the mail
 * worker calls it when the SMTP server refuses a recipient for good.
 */
export async function recordBounce(db: DbOrTx, to: string, refusal: SmtpRefusal): Promise<void> {
  const address = recipientAddress(to);
  if (!address) return;
  const answer = bounceAnswer(refusal);
  await db
    .insert(emailBounces)
    .values({ address, smtpCode: refusal.code ?? null, smtpAnswer: answer })
    .onConflictDoUpdate({
      target: emailBounces.address,
      set: { bouncedAt: sql`now()`, smtpCode: refusal.code ?? null, smtpAnswer: answer },
    });
}

/** Takes the mark off the address; what it said, or undefined when it was not marked. */
export async function clearBounce(db: DbOrTx, address: string): Promise<EmailBounce | undefined> {
  const [row] = await db
    .delete(emailBounces)
    .where(eq(emailBounces.address, address.trim().toLowerCase()))
    .returning({ bouncedAt: emailBounces.bouncedAt, answer: emailBounces.smtpAnswer });
  return row;
}

/** The bounce recorded for the address, if any. */
export async function bounceOf(db: DbOrTx, address: string): Promise<EmailBounce | undefined> {
  const [row] = await db
    .select({ bouncedAt: emailBounces.bouncedAt, answer: emailBounces.smtpAnswer })
    .from(emailBounces)
    .where(eq(emailBounces.address, address.trim().toLowerCase()));
  return row;
}
