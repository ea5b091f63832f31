-- The catalog list's session cache (src/server/auth/session-cache.ts): a session that ends
-- (signed out, revoked, expired and removed, its user deleted) or a user that changes (role,
-- email, removal) says so on the catalog's channel with the payload 'sessions', in the writing
-- transaction (delivered at its commit), so every process's listener forgets the sessions it
-- kept. Statement-level: one message however many rows.
CREATE OR REPLACE FUNCTION notify_sessions_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changed', 'sessions');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_ended AFTER DELETE ON session
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sessions_changed();
--> statement-breakpoint
CREATE TRIGGER session_truncated AFTER TRUNCATE ON session
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sessions_changed();
--> statement-breakpoint
CREATE TRIGGER user_changed AFTER UPDATE OR DELETE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sessions_changed();
--> statement-breakpoint
CREATE TRIGGER user_truncated AFTER TRUNCATE ON "user"
  FOR EACH STATEMENT EXECUTE FUNCTION notify_sessions_changed();
