-- A PIES import's own counts (docs/imports.md): items, parts added, changed and unchanged,
-- attribute values, new attribute definitions, interchange numbers and assets. Null for ACES.
ALTER TABLE "catalog_imports" ADD COLUMN "pies_counts" jsonb;
