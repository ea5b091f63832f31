-- The customer's revision (docs/decisions/011-checkout-workflow.md, "Placed in two statements"):
-- every change made under the customer's lock (cart, addresses, orders) moves it on, and a
-- placement that read the customer without the lock writes, in one statement, only while it is
-- what it read.
ALTER TABLE "user" ADD COLUMN "revision" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- That statement's refusal when the customer or the stock changed since its read: the whole
-- statement is undone, and the caller reads again (SQLSTATE 40001, serialization_failure: "try
-- again").
CREATE FUNCTION placement_changed() RETURNS int LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the customer or the stock changed since the placement read them'
    USING ERRCODE = '40001';
END $$;
--> statement-breakpoint
-- A user's change tells the session caches (migration 0039) only when it changes what a session
-- shows (email, name, role, two-factor, verified): a revision moving on, or a profile edit,
-- keeps them.
DROP TRIGGER user_changed ON "user";
--> statement-breakpoint
CREATE TRIGGER user_changed AFTER UPDATE ON "user" FOR EACH ROW
  WHEN ((OLD.email, OLD.name, OLD.role, OLD.two_factor_enabled, OLD.email_verified)
        IS DISTINCT FROM (NEW.email, NEW.name, NEW.role, NEW.two_factor_enabled, NEW.email_verified))
  EXECUTE FUNCTION notify_sessions_changed();
--> statement-breakpoint
CREATE TRIGGER user_removed AFTER DELETE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sessions_changed();
