CREATE TABLE "base_vehicle_engines" (
	"base_vehicle_id" integer NOT NULL,
	"engine_id" integer NOT NULL,
	CONSTRAINT "base_vehicle_engines_base_vehicle_id_engine_id_pk" PRIMARY KEY("base_vehicle_id","engine_id")
);
--> statement-breakpoint
CREATE TABLE "base_vehicles" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "base_vehicles_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"year" integer NOT NULL,
	"model_id" integer NOT NULL,
	"vcdb_base_vehicle_id" integer,
	CONSTRAINT "base_vehicles_year_range" CHECK ("base_vehicles"."year" between 1900 and 2100)
);
--> statement-breakpoint
CREATE TABLE "garage_vehicles" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"base_vehicle_id" integer NOT NULL,
	"engine_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "garage_vehicles_unique" UNIQUE NULLS NOT DISTINCT("user_id","base_vehicle_id","engine_id")
);
--> statement-breakpoint
CREATE TABLE "product_fitments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"base_vehicle_id" integer NOT NULL,
	"submodel_id" integer,
	"engine_id" integer,
	"position" text,
	"quantity" integer DEFAULT 1 NOT NULL,
	"note" text,
	CONSTRAINT "product_fitments_unique" UNIQUE NULLS NOT DISTINCT("product_id","base_vehicle_id","submodel_id","engine_id","position"),
	CONSTRAINT "product_fitments_quantity_positive" CHECK ("product_fitments"."quantity" between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "vehicle_engines" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vehicle_engines_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"liters" text,
	"fuel" text,
	"vcdb_engine_config_id" integer,
	CONSTRAINT "vehicle_engines_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "vehicle_makes" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vehicle_makes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"vcdb_make_id" integer,
	CONSTRAINT "vehicle_makes_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "vehicle_models" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vehicle_models_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"make_id" integer NOT NULL,
	"name" text NOT NULL,
	"vcdb_model_id" integer
);
--> statement-breakpoint
CREATE TABLE "vehicle_submodels" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "vehicle_submodels_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"vcdb_submodel_id" integer,
	CONSTRAINT "vehicle_submodels_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "base_vehicle_engines" ADD CONSTRAINT "base_vehicle_engines_base_vehicle_id_base_vehicles_id_fk" FOREIGN KEY ("base_vehicle_id") REFERENCES "public"."base_vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "base_vehicle_engines" ADD CONSTRAINT "base_vehicle_engines_engine_id_vehicle_engines_id_fk" FOREIGN KEY ("engine_id") REFERENCES "public"."vehicle_engines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "base_vehicles" ADD CONSTRAINT "base_vehicles_model_id_vehicle_models_id_fk" FOREIGN KEY ("model_id") REFERENCES "public"."vehicle_models"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garage_vehicles" ADD CONSTRAINT "garage_vehicles_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garage_vehicles" ADD CONSTRAINT "garage_vehicles_base_vehicle_id_base_vehicles_id_fk" FOREIGN KEY ("base_vehicle_id") REFERENCES "public"."base_vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "garage_vehicles" ADD CONSTRAINT "garage_vehicles_engine_id_vehicle_engines_id_fk" FOREIGN KEY ("engine_id") REFERENCES "public"."vehicle_engines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_fitments" ADD CONSTRAINT "product_fitments_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_fitments" ADD CONSTRAINT "product_fitments_base_vehicle_id_base_vehicles_id_fk" FOREIGN KEY ("base_vehicle_id") REFERENCES "public"."base_vehicles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_fitments" ADD CONSTRAINT "product_fitments_submodel_id_vehicle_submodels_id_fk" FOREIGN KEY ("submodel_id") REFERENCES "public"."vehicle_submodels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "product_fitments" ADD CONSTRAINT "product_fitments_engine_id_vehicle_engines_id_fk" FOREIGN KEY ("engine_id") REFERENCES "public"."vehicle_engines"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vehicle_models" ADD CONSTRAINT "vehicle_models_make_id_vehicle_makes_id_fk" FOREIGN KEY ("make_id") REFERENCES "public"."vehicle_makes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "base_vehicles_model_year_unique" ON "base_vehicles" USING btree ("model_id","year");--> statement-breakpoint
CREATE INDEX "base_vehicles_year_idx" ON "base_vehicles" USING btree ("year","model_id");--> statement-breakpoint
CREATE INDEX "product_fitments_vehicle_product_idx" ON "product_fitments" USING btree ("base_vehicle_id","product_id");--> statement-breakpoint
CREATE INDEX "product_fitments_product_idx" ON "product_fitments" USING btree ("product_id");--> statement-breakpoint
CREATE UNIQUE INDEX "vehicle_models_make_name_unique" ON "vehicle_models" USING btree ("make_id","name");--> statement-breakpoint
-- A fitment change is a catalog change: every process's read cache hears of it.
CREATE TRIGGER product_fitments_changed AFTER INSERT OR UPDATE OR DELETE ON product_fitments
  FOR EACH STATEMENT EXECUTE FUNCTION notify_catalog_changed();
