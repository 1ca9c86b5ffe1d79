// Every migration, applied in name order. A shipped migration is never edited: a change is a new file, listed
// here (a unit test fails when a file of this folder or of contract/ is missing from the lists). Imported
// statically so the bundled server (`npm start`) carries them; no directory is read at start.
// Expand-then-contract: MIGRATIONS only add (the release before still runs on the result); a step that takes
// away what the release before uses (a column, a constraint) is a CONTRACT_MIGRATIONS entry, named after the
// expand migration it completes, applied by `migrate --contract` once every instance runs the new release.
import type { Migration } from "kysely";
import * as m0001 from "./0001_init.ts";
import * as m0002 from "./0002_shipping.ts";
import * as m0003 from "./0003_webhooks.ts";
import * as m0004 from "./0004_webhook_outcomes.ts";
import * as m0005 from "./0005_event_feed.ts";
import * as m0006 from "./0006_shared_counters.ts";
import * as m0007 from "./0007_endpoint_failure_streak.ts";
import * as m0008 from "./0008_portal.ts";
import * as m0009 from "./0009_feed_positions.ts";
import * as m0010 from "./0010_delivery_receiver_wait.ts";
import * as m0011 from "./0011_portal_users_per_merchant.ts";
import * as m0012 from "./0012_event_trace_parent.ts";
import * as m0013 from "./0013_checkout.ts";
import * as m0014 from "./0014_portal_password_reset.ts";
import * as m0015 from "./0015_inbound_newest_first.ts";
import * as m0016 from "./0016_rule_postal_codes.ts";
import * as m0017 from "./0017_warehouse.ts";
import * as m0018 from "./0018_key_origins.ts";
import * as m0019 from "./0019_delivery_dates.ts";
import * as m0020 from "./0020_sealed_secrets.ts";
import * as m0021 from "./0021_carrier_service_tokens.ts";
import * as m0022 from "./0022_pickup_max_distance.ts";
import * as m0023 from "./0023_pickup_point_kind.ts";
import * as c0011 from "./contract/0011_drop_global_portal_email.ts";
import * as c0016 from "./contract/0016_rule_postal_codes.ts";
import * as c0020 from "./contract/0020_sealed_secrets.ts";

export const MIGRATIONS: Record<string, Migration> = {
  "0001_init": m0001,
  "0002_shipping": m0002,
  "0003_webhooks": m0003,
  "0004_webhook_outcomes": m0004,
  "0005_event_feed": m0005,
  "0006_shared_counters": m0006,
  "0007_endpoint_failure_streak": m0007,
  "0008_portal": m0008,
  "0009_feed_positions": m0009,
  "0010_delivery_receiver_wait": m0010,
  "0011_portal_users_per_merchant": m0011,
  "0012_event_trace_parent": m0012,
  "0013_checkout": m0013,
  "0014_portal_password_reset": m0014,
  "0015_inbound_newest_first": m0015,
  "0016_rule_postal_codes": m0016,
  "0017_warehouse": m0017,
  "0018_key_origins": m0018,
  "0019_delivery_dates": m0019,
  "0020_sealed_secrets": m0020,
  "0021_carrier_service_tokens": m0021,
  "0022_pickup_max_distance": m0022,
  "0023_pickup_point_kind": m0023,
};

/** Kept in their own migration table, so that MIGRATIONS stay in order whenever these run. */
export const CONTRACT_MIGRATIONS: Record<string, Migration> = {
  "0011_drop_global_portal_email": c0011,
  "0016_rule_postal_codes": c0016,
  "0020_sealed_secrets": c0020,
};
