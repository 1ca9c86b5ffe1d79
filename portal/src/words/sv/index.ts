// Svenska, när webbläsarens första språk som portalen talar är svenska.
import type { Catalogue } from "../catalogue.ts";
import { arrivals } from "./arrivals.ts";
import { errors } from "./errors.ts";
import { fields } from "./fields.ts";
import { label } from "./label.ts";
import { pricing } from "./pricing.ts";
import { shopify } from "./shopify.ts";
import { station } from "./station.ts";
import { statuses } from "./statuses.ts";

export const sv: Catalogue = {
  ...arrivals,
  ...errors,
  ...fields,
  ...label,
  ...pricing,
  ...shopify,
  ...station,
  ...statuses,
};
