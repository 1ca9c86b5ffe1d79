// English: the Checkout page's Shopify part.
import type { Catalogue } from "../catalogue.ts";

export const shopify: Pick<Catalogue, "shopify"> = {
  shopify: {
    title: "Shopify",
    about:
      "A Shopify shop's checkout can ask us for your delivery options: home delivery, letter and the pickup points nearest the shopper, priced by your price lists, with delivery dates. Shopify calls a secret address of yours for them.",
    stepsTitle: "Connect your Shopify shop",
    stepPlan:
      "Check that your Shopify plan includes carrier-calculated shipping (Advanced and Plus do; Shopify can add it to other plans).",
    stepApp: "Make a Shopify app for your shop that may change shipping settings (the write_shipping access).",
    stepAddress:
      "Create a callback address below and copy it: it is shown only once. Add your app's client secret if you want each call's signature checked.",
    stepRegister:
      "Register the address in Shopify with your app: the call to send is shown with the address (carrierServiceCreate).",
    stepZones: "In Shopify's shipping settings, add this service's rates to your shipping zones.",
    addresses: "Shopify callback addresses",
    name: "Name",
    address: "Address",
    pickupRates: "Pickup points offered",
    signed: "Signature checked",
    created: "Created",
    status: "Status",
    actions: "Actions",
    unnamed: "Unnamed address",
    working: "Working",
    revokedAt: (when) => `Revoked ${when}`,
    revoke: "Revoke",
    revokeQuestion: (name) => `Revoke ${name}?`,
    revokeAddress: "Revoke address",
    revokeWhat:
      "Shopify gets no rates from this address any more, at once, and shows the shop's backup rates instead. This cannot be undone.",
    revoked: "The address was revoked: Shopify now shows the shop's backup rates.",
    form: "New Shopify callback address",
    createTitle: "Create a callback address",
    nameField: "Name (for you, e.g. the shop's name)",
    pickupRatesField: "How many of the nearest pickup points to offer",
    tagPropertiesField: "Product properties whose values are tags in your pricing rules, one per line",
    tagPropertiesHint: "For example _shipping_tag. Leave empty if your pricing rules use no tags.",
    appSecretField: "Your Shopify app's client secret (optional)",
    appSecretHint:
      "With it, a call without Shopify's signature gets no rates. It is stored encrypted and not shown again.",
    create: "Create address",
    createdTitle: "Your callback address (shown once)",
    createdAbout:
      "Copy it now and register it in Shopify: it is not shown again. Whoever has it gets your rates, so keep it out of sight.",
    callTitle: "The call that registers it in Shopify (GraphQL Admin API)",
    copyCall: "Copy call",
  },
};
