/** GS1 check digit: weights 3,1,3,... from the right, excluding the check digit itself. */
export function isValidGtin(gtin: string): boolean {
  if (gtin === "") return true;
  if (!/^(\d{8}|\d{12,14})$/.test(gtin)) return false;
  const digits = [...gtin].map(Number);
  const check = digits.pop()!;
  const sum = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}
