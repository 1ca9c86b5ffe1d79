// A merchant's shipping settings: which methods, their weight limits, countries served, pickup points offered.
import type { ShippingSettings, ShippingSettingsInput } from "../../generated/api.ts";
import type { Principal } from "../accounts/domain.ts";
import type { Executor, Tx } from "../db/transaction.ts";
import { checkIfMatch, entityTag } from "../shared/entity-tags.ts";
import { formatTimestamp } from "../shared/time.ts";
import * as q from "./db.ts";

export type { ShippingSettings };

/** What applies until the merchant replaces the settings (the spec's getShippingSettings says so). */
export const DEFAULT_SETTINGS: ShippingSettings = {
  letter: { enabled: true, max_weight_g: 2000 },
  home: { enabled: true },
  pickup: { enabled: true, max_distance_km: 50 },
  countries: ["FI"],
  pickup_points_limit: 10,
  time_zone: null,
  delivery_times: {},
  updated_at: null,
};

const weight = (g: number | null) => (g === null ? {} : { max_weight_g: g });

export function settingsToWire(row: q.SettingsRow | null | undefined): ShippingSettings {
  if (!row) return DEFAULT_SETTINGS;
  return {
    letter: { enabled: row.letter_enabled, max_weight_g: row.letter_max_weight_g },
    home: { enabled: row.home_enabled, ...weight(row.home_max_weight_g) },
    pickup: {
      enabled: row.pickup_enabled,
      ...weight(row.pickup_max_weight_g),
      max_distance_km: row.pickup_max_distance_km,
    },
    countries: row.countries,
    pickup_points_limit: row.pickup_points_limit,
    time_zone: row.time_zone,
    delivery_times: row.delivery_times ?? {},
    updated_at: formatTimestamp(row.updated_at),
  };
}

export async function getSettings(db: Executor, merchant: Principal): Promise<ShippingSettings> {
  return settingsToWire(await q.findSettings(db, merchant.id));
}

/** `ifMatch`: the If-Match condition as sent (see entity-tags.ts), checked under the merchant's settings lock. */
export async function replaceSettings(
  trx: Tx,
  merchant: Principal,
  input: ShippingSettingsInput,
  ifMatch?: string,
): Promise<ShippingSettings> {
  if (ifMatch !== undefined) {
    await q.lockSettings(trx, merchant.id);
    checkIfMatch(ifMatch, entityTag(await getSettings(trx, merchant)), "shipping settings");
  }
  const row = {
    merchant_id: merchant.id,
    letter_enabled: input.letter.enabled,
    letter_max_weight_g: input.letter.max_weight_g,
    home_enabled: input.home.enabled,
    home_max_weight_g: input.home.max_weight_g ?? null,
    pickup_enabled: input.pickup.enabled,
    pickup_max_weight_g: input.pickup.max_weight_g ?? null,
    pickup_max_distance_km: input.pickup.max_distance_km ?? DEFAULT_SETTINGS.pickup.max_distance_km,
    countries: input.countries,
    pickup_points_limit: input.pickup_points_limit ?? DEFAULT_SETTINGS.pickup_points_limit,
    time_zone: input.time_zone ?? null,
    delivery_times: input.delivery_times ?? {},
    updated_at: new Date(),
  };
  await q.upsertSettings(trx, { ...row, delivery_times: JSON.stringify(row.delivery_times) });
  return settingsToWire(row);
}
