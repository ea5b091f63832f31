// Formatting and checks for the test-card form; the gateway checks again on the server.
import { luhnValid } from "#contract/cards";

export const digitsOnly = (s: string) => s.replace(/\D/g, "");

/** "4242424242424242" -> "4242 4242 4242 4242" */
export const formatCardNumber = (s: string) =>
  digitsOnly(s)
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, "$1 ");

/** "1230" -> "12 / 30" */
export function formatExpiry(s: string) {
  const d = digitsOnly(s).slice(0, 4);
  return d.length > 2 ? `${d.slice(0, 2)} / ${d.slice(2)}` : d;
}

export interface CardErrors {
  number?: string;
  expiry?: string;
  cvc?: string;
}

export function checkCardInput(
  card: { number: string; expiry: string; cvc: string },
  now = new Date(),
): CardErrors {
  const errors: CardErrors = {};
  const number = digitsOnly(card.number);
  if (number.length < 12 || !luhnValid(number)) errors.number = "Your card number is invalid.";
  const [mm, yy] =
    digitsOnly(card.expiry)
      .match(/^(\d{2})(\d{2})$/)
      ?.slice(1) ?? [];
  const month = Number(mm);
  if (!mm || !yy || month < 1 || month > 12) {
    errors.expiry = "Your card's expiration date is incomplete.";
  } else if (new Date(Date.UTC(2000 + Number(yy), month, 1)) <= now) {
    errors.expiry = "Your card has expired.";
  }
  if (!/^\d{3,4}$/.test(card.cvc)) errors.cvc = "Your card's security code is incomplete.";
  return errors;
}
