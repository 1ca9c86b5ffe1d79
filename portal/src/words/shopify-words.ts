// The Checkout page's Shopify part (portal/src/pages/checkout/Shopify.tsx): the callback addresses Shopify's
// carrier service calls for rates, and the steps that connect a Shopify shop. One record per language (en/fi/sv
// shopify.ts), checked against this shape.
export interface ShopifyWords {
  title: string;
  about: string;
  stepsTitle: string;
  /** The steps in order: the plan, the app, the address, the registration call, the shipping zones. */
  stepPlan: string;
  stepApp: string;
  stepAddress: string;
  stepRegister: string;
  stepZones: string;
  /** The table of callback addresses and its columns. */
  addresses: string;
  name: string;
  address: string;
  pickupRates: string;
  signed: string;
  created: string;
  status: string;
  actions: string;
  unnamed: string;
  working: string;
  revokedAt: (when: string) => string;
  revoke: string;
  revokeQuestion: (name: string) => string;
  revokeAddress: string;
  revokeWhat: string;
  revoked: string;
  /** The form that creates one. */
  form: string;
  createTitle: string;
  nameField: string;
  pickupRatesField: string;
  tagPropertiesField: string;
  tagPropertiesHint: string;
  appSecretField: string;
  appSecretHint: string;
  create: string;
  /** The address, shown once after it was created, with the registration call. */
  createdTitle: string;
  createdAbout: string;
  callTitle: string;
  copyCall: string;
}
