import { paths } from "../../contract/paths";
import type { Mailer } from "../mail/mailer";
import { lowStockMail } from "../mail/templates";
import type { LowStockMail } from "./service";

/** The daily low-stock email, queued in the mail outbox with the day's record. */
export function createLowStockMail(
  mailer: Pick<Mailer, "sendIn">,
  publicUrl: string,
): LowStockMail {
  return {
    async send(tx, admin, day, low) {
      const mail = lowStockMail({
        name: admin.name,
        count: low.count,
        products: low.products.map((p) => ({
          label: `${p.partNumber} ${p.name}`,
          stock: `${p.availableQuantity} / ${p.reorderLevel}`,
        })),
        url: new URL(paths.dashboard, publicUrl).href,
        publicUrl,
      });
      await mailer.sendIn(tx, { to: admin.email, ...mail }, `low-stock:${day}:${admin.id}`);
    },
  };
}
