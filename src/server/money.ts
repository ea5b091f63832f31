/** Money is stored in minor units (cents); the API shows currency units. */
export const centsToUnits = (cents: number): number => cents / 100;
export const unitsToCents = (units: number): number => Math.round(units * 100);
