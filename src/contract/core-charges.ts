import { z } from "zod";
import { formatCount } from "./count";
import { hasAtMostTwoDecimals } from "./common";

/** The largest core deposit an admin may set, in currency units (a deposit is not a price). */
export const MAX_CORE_DEPOSIT = 100_000;

export const coreDepositMessages = {
  number: "Enter the deposit as an amount, e.g. 45.00",
  positive: "A core deposit is more than 0: clear it (null) for none",
  tooLarge: `A core deposit is at most ${formatCount(MAX_CORE_DEPOSIT)}`,
  decimals: "Use at most 2 decimals",
} as const;

/**
 * An admin's core deposit for one product, in currency units (docs/core-charges.md); null takes
 * it off (the part is no longer sold with a deposit; orders placed keep theirs).
 */
export const coreDepositInputSchema = z.strictObject({
  coreDeposit: z
    .number({ message: coreDepositMessages.number })
    .positive(coreDepositMessages.positive)
    .max(MAX_CORE_DEPOSIT, coreDepositMessages.tooLarge)
    .refine(hasAtMostTwoDecimals, coreDepositMessages.decimals)
    .nullable(),
});
export type CoreDepositInput = z.infer<typeof coreDepositInputSchema>;

export const coreDepositSchema = z.object({
  productId: z.uuid(),
  /** The deposit per unit in currency units; null: none. */
  coreDeposit: z.number().nullable(),
});
export type CoreDeposit = z.infer<typeof coreDepositSchema>;
