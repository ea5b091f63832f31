CREATE SEQUENCE "public"."quotes_number_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 10001 CACHE 1;--> statement-breakpoint
-- Quotes asked before numbers existed are numbered in the order they were asked, then new ones
-- from the sequence (as orders were in 0045).
ALTER TABLE "quotes" ADD COLUMN "number" integer;--> statement-breakpoint
UPDATE "quotes" q SET "number" = n.number
  FROM (SELECT id, 10000 + row_number() OVER (ORDER BY created_at, id) AS number FROM quotes) n
 WHERE n.id = q.id;--> statement-breakpoint
SELECT setval('quotes_number_seq', coalesce((SELECT max("number") FROM quotes), 10000) + 1, false);--> statement-breakpoint
ALTER SEQUENCE "public"."quotes_number_seq" OWNED BY "quotes"."number";--> statement-breakpoint
ALTER TABLE "quotes" ALTER COLUMN "number" SET DEFAULT nextval('quotes_number_seq');--> statement-breakpoint
ALTER TABLE "quotes" ALTER COLUMN "number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "quotes" ADD CONSTRAINT "quotes_number_unique" UNIQUE("number");
