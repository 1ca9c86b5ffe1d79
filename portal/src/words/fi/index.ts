// Suomi, kun selaimen ensimmäinen portaalin osaama kieli on suomi.
import type { Catalogue } from "../catalogue.ts";
import { arrivals } from "./arrivals.ts";
import { checkout } from "./checkout.ts";
import { common } from "./common.ts";
import { errors } from "./errors.ts";
import { fields } from "./fields.ts";
import { label } from "./label.ts";
import { pricing } from "./pricing.ts";
import { shopify } from "./shopify.ts";
import { pricingPage } from "./pricing-page.ts";
import { shipments } from "./shipments.ts";
import { station } from "./station.ts";
import { statuses } from "./statuses.ts";
import { users } from "./users.ts";
import { webhooks } from "./webhooks.ts";

export const fi: Catalogue = {
  ...arrivals,
  ...errors,
  ...fields,
  ...label,
  ...pricing,
  ...shopify,
  ...station,
  ...statuses,
  ...common,
  ...checkout,
  ...shipments,
  ...pricingPage,
  ...webhooks,
  ...users,
};
