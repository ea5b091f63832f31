import { plural } from "../../contract/count";
import { paths } from "../../contract/paths";
import type { Mailer } from "../mail/mailer";
import type { LowStockMail } from "./service";
import { hello, layout, type MailContent } from "../mail/layout";

/** The daily low-stock email, queued in the mail outbox with the day's record. */
export function createLowStockMail(
  mailer: Pick<Mailer, "sendIn">,
  publicUrl: string,
): LowStockMail {
  return {
    async send(tx, admin, day, low, atLocations) {
      const mail = lowStockMail({
        name: admin.name,
        count: low.count + atLocations.count,
        products: [
          ...low.products.map((p) => ({
            label: `${p.partNumber} ${p.name}`,
            stock: `${p.availableQuantity} / ${p.reorderLevel}`,
          })),
          ...atLocations.rows.map((r) => ({
            label: `${r.partNumber} ${r.name} at ${r.location}`,
            stock: `${r.onSale} / ${r.reorderLevel}`,
          })),
        ],
        url: new URL(paths.dashboard, publicUrl).href,
        publicUrl,
      });
      await mailer.sendIn(tx, { to: admin.email, ...mail }, `low-stock:${day}:${admin.id}`);
    },
  };
}

/** An admin: the products below their reorder level today (the admin home lists them too). */
export function lowStockMail(o: {
  name: string;
  count: number;
  /** Part number and name, and "stock / reorder level", the least stock first. */
  products: { label: string; stock: string }[];
  url: string;
  publicUrl: string;
}): MailContent {
  const more = o.count - o.products.length;
  return layout({
    subject: `${plural(o.count, "product is", "products are")} low on stock`,
    greeting: hello(o.name),
    paragraphs: [
      `These products have less stock than their reorder level (stock / reorder level):`,
    ],
    table: o.products.map((p) => [p.label, p.stock]),
    after: more > 0 ? [`And ${more} more on the admin home.`] : [],
    action: { label: "Open the admin home", url: o.url },
    publicUrl: o.publicUrl,
  });
}
