import { expect, it } from "vitest";
import { isValidGtin } from "../../server/shared/gtin.ts";

it.each([
  ["", true],
  ["6410405082657", true],
  ["96385074", true],
  ["036000291452", true],
  ["10614141000019", true],
  ["6410405082658", false],
  ["96385075", false],
  ["123456789", false],
  ["64104050826a7", false],
  ["036000291453", false],
])("GTIN %j valid: %s", (gtin, valid) => {
  expect(isValidGtin(gtin)).toBe(valid);
});
