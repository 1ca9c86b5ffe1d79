import { sql, type Kysely } from "kysely";

// Pickup point directory, postal-code locations, merchant shipping settings and price lists, orders.
// Runs on PostgreSQL 15 and on PGlite (PostgreSQL 18, which loads `cube` in db/database.ts).
export async function up(db: Kysely<any>): Promise<void> {
  // Nearest pickup points: each point's position as a unit vector in a `cube`, whose GiST index finds the nearest
  // by straight-line (chord) distance, which orders exactly as great-circle distance does. `cube` is a trusted
  // contrib extension: the database owner may create it.
  await sql`create extension if not exists cube`.execute(db);
  await db.schema
    .createTable("pickup_points")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("address", "text", (c) => c.notNull())
    .addColumn("postalcode", "text", (c) => c.notNull())
    .addColumn("city", "text", (c) => c.notNull())
    .addColumn("country", "text", (c) => c.notNull())
    .addColumn("lat", "double precision", (c) => c.notNull())
    .addColumn("lon", "double precision", (c) => c.notNull())
    .addColumn("branch", "text", (c) => c.notNull())
    .addColumn("location_info", "text")
    .addColumn("carrier_info", "jsonb", (c) => c.notNull())
    .addColumn("position", sql`cube`, (c) =>
      c
        .notNull()
        .generatedAlwaysAs(
          sql`cube(array[cos(radians(lat)) * cos(radians(lon)), cos(radians(lat)) * sin(radians(lon)), sin(radians(lat))])`,
        )
        .stored(),
    )
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index pickup_points_position on pickup_points using gist (position)`.execute(db);
  await db.schema
    .createIndex("pickup_points_country_postalcode")
    .on("pickup_points")
    .columns(["country", "postalcode"])
    .execute();

  await db.schema
    .createTable("postal_code_locations")
    .addColumn("country", "text", (c) => c.notNull())
    .addColumn("postalcode", "text", (c) => c.notNull())
    .addColumn("place_name", "text", (c) => c.notNull())
    .addColumn("admin_name1", "text")
    .addColumn("admin_code1", "text")
    .addColumn("admin_name2", "text")
    .addColumn("admin_code2", "text")
    .addColumn("admin_name3", "text")
    .addColumn("admin_code3", "text")
    .addColumn("lat", "double precision", (c) => c.notNull())
    .addColumn("lon", "double precision", (c) => c.notNull())
    .addColumn("accuracy", "smallint")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("postal_code_locations_pk", ["country", "postalcode"])
    .execute();

  await db.schema
    .createTable("shipping_settings")
    .addColumn("merchant_id", "text", (c) => c.primaryKey().references("merchants.id"))
    .addColumn("letter_enabled", "boolean", (c) => c.notNull())
    .addColumn("letter_max_weight_g", "integer", (c) => c.notNull())
    .addColumn("home_enabled", "boolean", (c) => c.notNull())
    .addColumn("home_max_weight_g", "integer")
    .addColumn("pickup_enabled", "boolean", (c) => c.notNull())
    .addColumn("pickup_max_weight_g", "integer")
    .addColumn("countries", sql`text[]`, (c) => c.notNull())
    .addColumn("pickup_points_limit", "integer", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("price_lists")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("method", "text", (c) => c.notNull())
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("tax", "double precision", (c) => c.notNull())
    .addColumn("fallback_price_cents", "integer", (c) => c.notNull())
    .addColumn("pricing_rules", "jsonb", (c) => c.notNull())
    .addColumn("modification_rules", "jsonb", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // At most one list per method: two concurrent creates cannot both win.
    .addUniqueConstraint("price_lists_merchant_method", ["merchant_id", "method"])
    .execute();

  await db.schema
    .createTable("orders")
    .addColumn("id", "char(24)", (c) => c.primaryKey())
    .addColumn("merchant_id", "text", (c) => c.notNull().references("merchants.id"))
    .addColumn("merchants_ref", "text", (c) => c.notNull())
    .addColumn("customer", "jsonb", (c) => c.notNull())
    .addColumn("tags", "jsonb", (c) => c.notNull())
    .addColumn("destination", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("orders_merchant_created")
    .on("orders")
    .columns(["merchant_id", "created_at", "id"])
    .execute();

  await db.schema
    .createTable("order_lines")
    .addColumn("order_id", "char(24)", (c) => c.notNull().references("orders.id"))
    .addColumn("position", "integer", (c) => c.notNull())
    .addColumn("product_id", "char(24)", (c) => c.notNull().references("products.id"))
    .addColumn("merchants_id", "text", (c) => c.notNull())
    .addColumn("name", "text")
    .addColumn("qty", "integer", (c) => c.notNull())
    .addColumn("unit_price_cents", "integer", (c) => c.notNull())
    .addColumn("weight_g", "integer", (c) => c.notNull())
    .addColumn("length_mm", "integer")
    .addColumn("width_mm", "integer")
    .addColumn("height_mm", "integer")
    .addColumn("letter_allowed", "boolean", (c) => c.notNull())
    .addPrimaryKeyConstraint("order_lines_pk", ["order_id", "position"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "order_lines",
    "orders",
    "price_lists",
    "shipping_settings",
    "postal_code_locations",
    "pickup_points",
  ]) {
    await db.schema.dropTable(t).execute();
  }
  await sql`drop extension if exists cube`.execute(db);
}
