/** The lines a shop pastes into its checkout page (docs/checkout-picker.md says the same). */
export const snippet = (key: string) =>
  [
    `<script src="${window.location.origin}/picker.js"></script>`,
    `<logistics-shipping-picker key="${key}" postalcode="00100" country="FI"`,
    `  weight="1200" cart-value="59.80" item-count="2"></logistics-shipping-picker>`,
    `<script>document.addEventListener("logistics-pick", (e) => saveChoice(e.detail?.quote ?? null));</script>`,
  ].join("\n");
