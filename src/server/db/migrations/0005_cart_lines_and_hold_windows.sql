CREATE TABLE "hold_windows" (
	"user_id" text NOT NULL,
	"product_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "hold_windows_user_id_product_id_pk" PRIMARY KEY("user_id","product_id")
);
--> statement-breakpoint
ALTER TABLE "cart_items" DROP CONSTRAINT "cart_items_product_id_products_id_fk";
--> statement-breakpoint
ALTER TABLE "cart_items" ADD COLUMN "product_name" text NOT NULL;--> statement-breakpoint
ALTER TABLE "hold_windows" ADD CONSTRAINT "hold_windows_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;