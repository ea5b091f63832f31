-- An order on account settled by credit notes alone (a full return, nothing paid) reads "Nothing
-- due", not "Paid" (contract/payment-words.ts).
ALTER TABLE "orders" ADD COLUMN "account_credited_in_full" boolean DEFAULT false NOT NULL;
