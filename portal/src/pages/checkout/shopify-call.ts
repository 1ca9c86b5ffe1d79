/** The GraphQL Admin API call that registers a callback address in Shopify (docs/shopify.md says the same). */
export const registrationCall = (callbackUrl: string) =>
  [
    "mutation {",
    "  carrierServiceCreate(",
    "    input: {",
    '      name: "Delivery options"',
    `      callbackUrl: "${callbackUrl}"`,
    "      supportsServiceDiscovery: true",
    "      active: true",
    "    }",
    "  ) {",
    "    carrierService { id name callbackUrl active }",
    "    userErrors { field message }",
    "  }",
    "}",
  ].join("\n");
