// English, the portal's language when the browser asks for neither Finnish nor Swedish.
import type { Catalogue } from "../catalogue.ts";
import { arrivals } from "./arrivals.ts";
import { errors } from "./errors.ts";
import { fields } from "./fields.ts";
import { label } from "./label.ts";
import { pricing } from "./pricing.ts";
import { shopify } from "./shopify.ts";
import { station } from "./station.ts";
import { statuses } from "./statuses.ts";

export const en: Catalogue = {
  ...arrivals,
  ...errors,
  ...fields,
  ...label,
  ...pricing,
  ...shopify,
  ...station,
  ...statuses,
};
