-- Outgoing webhooks (issue 51, docs/webhooks.md). An endpoint is another system's URL with the
-- events it wants and the secret deliveries are signed with (kept as is: HMAC needs it), and for
-- a day after a rotation the previous secret, which signs too. An event is written in the
-- transaction of the change it tells of, with one delivery per subscribed endpoint; each attempt
-- to deliver is logged. The deliveries' insert trigger and the endpoints' triggers say so on the
-- change bus's channel (delivered at commit): 'webhook-outbox' wakes every process's sender,
-- 'webhooks' clears every process's set of subscribed event types.
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"event_types" text[] NOT NULL,
	"secret" text NOT NULL,
	"previous_secret" text,
	"previous_secret_until" timestamp with time zone,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_endpoints_url_length" CHECK (char_length("webhook_endpoints"."url") between 1 and 2000),
	CONSTRAINT "webhook_endpoints_description_length" CHECK (char_length("webhook_endpoints"."description") <= 200),
	CONSTRAINT "webhook_endpoints_events_present" CHECK (cardinality("webhook_endpoints"."event_types") > 0),
	CONSTRAINT "webhook_endpoints_secret_valid" CHECK ("webhook_endpoints"."secret" ~ '^whsec_[A-Za-z0-9+/=]+$'),
	CONSTRAINT "webhook_endpoints_disabled_reason_valid" CHECK (("webhook_endpoints"."enabled" and "webhook_endpoints"."disabled_reason" is null) or (not "webhook_endpoints"."enabled" and "webhook_endpoints"."disabled_reason" in ('admin', 'failing')))
);
--> statement-breakpoint
CREATE TABLE "webhook_outbox" (
	"id" uuid PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"failures_in_round" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now(),
	"locked_until" timestamp with time zone,
	"last_response_status" integer,
	"last_duration_ms" integer,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "webhook_deliveries_status_valid" CHECK ("webhook_deliveries"."status" in ('pending', 'succeeded', 'failed')),
	CONSTRAINT "webhook_deliveries_pending_has_next" CHECK (("webhook_deliveries"."status" = 'pending') = ("webhook_deliveries"."next_attempt_at" is not null))
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" uuid NOT NULL,
	"attempted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"request_headers" jsonb NOT NULL,
	"response_status" integer,
	"response_body" text,
	"duration_ms" integer NOT NULL,
	"error" text
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_outbox_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_outbox"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","attempted_at");--> statement-breakpoint
CREATE OR REPLACE FUNCTION notify_webhook_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changed', 'webhook-outbox');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER webhook_deliveries_queued AFTER INSERT ON webhook_deliveries
  FOR EACH STATEMENT EXECUTE FUNCTION notify_webhook_outbox();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION notify_webhook_endpoints_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changed', 'webhooks');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER webhook_endpoints_changed AFTER INSERT OR DELETE OR UPDATE OF event_types, enabled ON webhook_endpoints
  FOR EACH STATEMENT EXECUTE FUNCTION notify_webhook_endpoints_changed();
--> statement-breakpoint
CREATE TRIGGER webhook_endpoints_truncated AFTER TRUNCATE ON webhook_endpoints
  FOR EACH STATEMENT EXECUTE FUNCTION notify_webhook_endpoints_changed();
--> statement-breakpoint
-- Events the database itself records, in the writing transaction, for the enabled endpoints
-- that want them (as webhooks/outbox.ts does for the others): `stock.low` and `customer.created`.
CREATE OR REPLACE FUNCTION webhook_record(event_type text, data json) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  event_id uuid;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhook_endpoints
                  WHERE enabled AND event_type = ANY(event_types)) THEN
    RETURN;
  END IF;
  event_id := gen_random_uuid();
  INSERT INTO webhook_outbox (id, type, body)
  VALUES (event_id, event_type, json_build_object(
    'type', event_type,
    'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'data', data)::text);
  INSERT INTO webhook_deliveries (event_id, endpoint_id)
  SELECT event_id, e.id FROM webhook_endpoints e
   WHERE e.enabled AND event_type = ANY(e.event_types);
END $$;
--> statement-breakpoint
-- `stock.low`: a product's stock falls below its reorder level (the admin's, else twice its
-- minimum order, as the admin home says), whatever moved it (an order, an admin, a bulk sync, an
-- import). The trigger's WHEN is checked without calling the function: other updates pay nothing.
CREATE OR REPLACE FUNCTION webhook_stock_low() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_record('stock.low', json_build_object(
    'productId', NEW.id,
    'partNumber', NEW.part_number,
    'name', NEW.name,
    'availableQuantity', NEW.available_quantity,
    'reorderLevel', coalesce(NEW.reorder_level, 2 * NEW.minimum_order)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER products_stock_low AFTER UPDATE OF available_quantity, reorder_level, minimum_order
  ON products FOR EACH ROW
  WHEN (OLD.available_quantity >= coalesce(OLD.reorder_level, 2 * OLD.minimum_order)
        AND NEW.available_quantity < coalesce(NEW.reorder_level, 2 * NEW.minimum_order))
  EXECUTE FUNCTION webhook_stock_low();
--> statement-breakpoint
-- `customer.created`: an account is made (sign-up by password or a social identity; Better Auth
-- writes the row, so the database records the event with it).
CREATE OR REPLACE FUNCTION webhook_customer_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM webhook_record('customer.created', json_build_object(
    'customerId', NEW.id,
    'email', NEW.email,
    'name', NEW.name,
    'role', NEW.role));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_created_webhook AFTER INSERT ON "user"
  FOR EACH ROW EXECUTE FUNCTION webhook_customer_created();
