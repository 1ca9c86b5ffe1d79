// Opening hours in the shopper's language. The directory's carriers write them in English, most often as
// `Mon-Fri 7-21, Sat 8-21, Sun 10-21`; text of that form is said with the locale's own day names ("ma–pe 7–21"),
// anything else is shown as the directory gives it.
const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
const TIME = "(\\d{1,2}(?:[:.]\\d{2})?)";
const PART = new RegExp(`^(${DAYS.join("|")})(?:-(${DAYS.join("|")}))? ${TIME}-${TIME}$`);

/** `text` with its day names in `locale`, or as given when it is not of the common form. */
export function openingHours(text: string, locale: string): string {
  // 2024-01-01 was a Monday: day i of the week is that date plus i days.
  const day = (name: string) =>
    new Intl.DateTimeFormat(locale, { weekday: "short", timeZone: "UTC" }).format(
      Date.UTC(2024, 0, 1 + DAYS.indexOf(name)),
    );
  const parts = text.split(/,\s*/).map((part) => PART.exec(part.trim()));
  if (!parts.length || parts.some((m) => !m)) return text;
  return parts
    .map((m) => {
      const [, from = "", to, open, close] = m!;
      return `${day(from)}${to ? `–${day(to)}` : ""} ${open}–${close}`;
    })
    .join(", ");
}
