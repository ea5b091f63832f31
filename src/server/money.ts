/** Money is stored in minor units (cents); the API shows currency units. */
export const centsToUnits = (cents: number): number => cents / 100;
export const unitsToCents = (units: number): number => Math.round(units * 100);

/** An amount as people read it in messages: `$1,234.50`. */
export const formatCents = (cents: number, currency: string): string =>
  new Intl.NumberFormat("en-US", { style: "currency", currency }).format(cents / 100);

/** The largest amount the database's money columns (integer cents) hold: 21,474,836.47. */
export const MAX_CENTS = 2_147_483_647;
