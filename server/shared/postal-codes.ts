// Country-specific postal code shapes, on top of the spec's general PostalCode pattern (which every code must
// also match). Countries not listed accept whatever that pattern accepts.
const COUNTRY_RULES: Record<string, { pattern: RegExp; example: string }> = {
  FI: { pattern: /^\d{5}$/, example: "00100" },
  AX: { pattern: /^22\d{3}$/, example: "22100" },
  EE: { pattern: /^\d{5}$/, example: "10111" },
  SE: { pattern: /^\d{3} ?\d{2}$/, example: "111 22" },
  NO: { pattern: /^\d{4}$/, example: "0150" },
  DK: { pattern: /^\d{4}$/, example: "1050" },
  DE: { pattern: /^\d{5}$/, example: "10115" },
};

/** Why `postalcode` cannot be a postal code of `country`, or null when it can. */
export function postalCodeProblem(country: string, postalcode: string): string | null {
  const rule = Object.hasOwn(COUNTRY_RULES, country) ? COUNTRY_RULES[country] : undefined;
  if (!rule || rule.pattern.test(postalcode)) return null;
  return `is not a postal code of ${country} (e.g. "${rule.example}")`;
}
