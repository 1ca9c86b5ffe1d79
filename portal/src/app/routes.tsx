// The route table: every view of the portal, its address and who may open it.
import type { ComponentType } from "react";
import type { Catalogue } from "../words/catalogue.ts";
import { Checkout } from "../pages/checkout/Checkout.tsx";
import { Pricing } from "../pages/pricing/Pricing.tsx";
import { Shipments } from "../pages/shipments/index.tsx";
import { Users } from "../pages/users/index.tsx";
import { Webhooks } from "../pages/webhooks/index.tsx";

export interface Area {
  path: string;
  /** Its name in the words catalogue (common.areas). */
  label: keyof Catalogue["common"]["areas"];
  adminOnly?: boolean;
  view: ComponentType<{ rest: string[] }>;
}

export const AREAS: readonly Area[] = [
  { path: "/shipments", label: "shipments", view: Shipments },
  { path: "/pricing", label: "pricing", view: Pricing },
  { path: "/webhooks", label: "webhooks", view: Webhooks },
  { path: "/checkout", label: "checkout", view: Checkout },
  { path: "/users", label: "users", adminOnly: true, view: Users },
];
