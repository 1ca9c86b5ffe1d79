// Generates a large, realistic, reproducible pickup point directory across Finland for benchmarks and load tests:
//   npm run generate:pickup-points -- --count 50000 --out points.json [--postal-codes codes.txt] [--seed 1] [--format csv]
// Points are spread over ~70 real towns weighted by population, each town gets postal codes derived from its real
// code area (e.g. Tampere 33100, 33110, ...) placed around its centre, and every point is jittered around one of
// its town's postal codes. The same seed and count always give the same files.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { components } from "../generated/api.ts";
import { carrierTypeKind } from "../server/pickup-points/kind.ts";
import { formatGeoNamesLine, type PostalCodeLocation } from "../server/pickup-points/geonames-format.ts";

type PickupPoint = components["schemas"]["PickupPoint"];

// [name, lat, lon, population, first postal code or explicit codes, region, region code]
type Town = [string, number, number, number, string | string[], string, string];
const TOWNS: Town[] = [
  ["Helsinki", 60.192, 24.945, 675000, "00100", "Uusimaa", "01"],
  ["Espoo", 60.205, 24.72, 310000, "02100", "Uusimaa", "01"],
  ["Tampere", 61.4978, 23.761, 250000, "33100", "Pirkanmaa", "06"],
  ["Vantaa", 60.2934, 25.0378, 245000, "01300", "Uusimaa", "01"],
  ["Oulu", 65.0121, 25.4651, 215000, "90100", "Pohjois-Pohjanmaa", "17"],
  ["Turku", 60.4518, 22.2666, 200000, "20100", "Varsinais-Suomi", "02"],
  ["Jyväskylä", 62.2426, 25.7473, 147000, "40100", "Keski-Suomi", "13"],
  ["Kuopio", 62.8924, 27.677, 124000, "70100", "Pohjois-Savo", "11"],
  ["Lahti", 60.9827, 25.6612, 121000, "15100", "Päijät-Häme", "07"],
  ["Pori", 61.4851, 21.7974, 83000, "28100", "Satakunta", "04"],
  ["Kouvola", 60.8681, 26.7042, 80000, "45100", "Kymenlaakso", "08"],
  ["Joensuu", 62.601, 29.7636, 78000, "80100", "Pohjois-Karjala", "12"],
  ["Lappeenranta", 61.0587, 28.1887, 73000, "53100", "Etelä-Karjala", "09"],
  ["Hämeenlinna", 60.9959, 24.4643, 68000, "13100", "Kanta-Häme", "05"],
  ["Vaasa", 63.0951, 21.6165, 68000, "65100", "Pohjanmaa", "15"],
  ["Seinäjoki", 62.7903, 22.8403, 65000, "60100", "Etelä-Pohjanmaa", "14"],
  ["Rovaniemi", 66.5039, 25.7294, 65000, "96100", "Lappi", "19"],
  ["Mikkeli", 61.6886, 27.2723, 52000, "50100", "Etelä-Savo", "10"],
  ["Kotka", 60.4664, 26.9458, 51000, "48100", "Kymenlaakso", "08"],
  ["Salo", 60.3831, 23.1332, 51000, "24100", "Varsinais-Suomi", "02"],
  ["Porvoo", 60.3932, 25.6651, 51000, "06100", "Uusimaa", "01"],
  ["Kokkola", 63.8385, 23.1307, 48000, "67100", "Keski-Pohjanmaa", "16"],
  ["Hyvinkää", 60.6305, 24.8583, 47000, "05800", "Uusimaa", "01"],
  ["Lohja", 60.2486, 24.0653, 46000, "08100", "Uusimaa", "01"],
  ["Järvenpää", 60.4737, 25.0899, 46000, "04400", "Uusimaa", "01"],
  ["Nurmijärvi", 60.4641, 24.8073, 44000, "01900", "Uusimaa", "01"],
  ["Kirkkonummi", 60.1237, 24.4385, 41000, "02400", "Uusimaa", "01"],
  ["Tuusula", 60.4036, 25.0264, 39000, "04300", "Uusimaa", "01"],
  ["Rauma", 61.1272, 21.5113, 38000, "26100", "Satakunta", "04"],
  ["Kerava", 60.4034, 25.105, 38000, "04200", "Uusimaa", "01"],
  ["Kaarina", 60.407, 22.369, 36000, ["20780", "20760", "20660", "21500", "21620"], "Varsinais-Suomi", "02"],
  ["Kajaani", 64.2273, 27.7285, 36000, "87100", "Kainuu", "18"],
  ["Nokia", 61.478, 23.508, 35000, "37100", "Pirkanmaa", "06"],
  ["Ylöjärvi", 61.556, 23.596, 34000, "33470", "Pirkanmaa", "06"],
  ["Kangasala", 61.464, 24.065, 33000, "36200", "Pirkanmaa", "06"],
  ["Savonlinna", 61.869, 28.879, 32000, "57100", "Etelä-Savo", "10"],
  ["Vihti", 60.417, 24.319, 29000, "03400", "Uusimaa", "01"],
  ["Riihimäki", 60.739, 24.773, 29000, "11100", "Kanta-Häme", "05"],
  ["Raisio", 60.486, 22.169, 25000, "21200", "Varsinais-Suomi", "02"],
  ["Imatra", 61.193, 28.776, 25000, "55100", "Etelä-Karjala", "09"],
  ["Sastamala", 61.342, 22.91, 24000, "38200", "Pirkanmaa", "06"],
  ["Lempäälä", 61.314, 23.753, 24000, "37500", "Pirkanmaa", "06"],
  ["Raahe", 64.685, 24.479, 24000, "92100", "Pohjois-Pohjanmaa", "17"],
  ["Hollola", 60.988, 25.513, 23000, "15870", "Päijät-Häme", "07"],
  ["Sipoo", 60.377, 25.272, 22000, "04130", "Uusimaa", "01"],
  ["Tornio", 65.848, 24.146, 21000, "95400", "Lappi", "19"],
  ["Iisalmi", 63.559, 27.19, 21000, "74100", "Pohjois-Savo", "11"],
  ["Valkeakoski", 61.264, 24.031, 21000, "37600", "Pirkanmaa", "06"],
  ["Mäntsälä", 60.636, 25.318, 21000, "04600", "Uusimaa", "01"],
  ["Lieto", 60.502, 22.456, 21000, "21420", "Varsinais-Suomi", "02"],
  ["Kemi", 65.736, 24.564, 20000, "94100", "Lappi", "19"],
  ["Varkaus", 62.315, 27.873, 20000, "78200", "Pohjois-Savo", "11"],
  ["Pirkkala", 61.464, 23.647, 20000, "33950", "Pirkanmaa", "06"],
  ["Naantali", 60.468, 22.026, 20000, "21100", "Varsinais-Suomi", "02"],
  ["Kempele", 64.913, 25.508, 20000, "90440", "Pohjois-Pohjanmaa", "17"],
  ["Jämsä", 61.864, 25.19, 20000, "42100", "Keski-Suomi", "13"],
  ["Hamina", 60.57, 27.198, 19000, "49400", "Kymenlaakso", "08"],
  ["Pietarsaari", 63.675, 22.703, 19000, "68600", "Pohjanmaa", "15"],
  ["Heinola", 61.203, 26.038, 18000, "18100", "Päijät-Häme", "07"],
  ["Forssa", 60.815, 23.621, 17000, "30100", "Kanta-Häme", "05"],
  ["Uusikaupunki", 60.8, 21.408, 15000, "23500", "Varsinais-Suomi", "02"],
  ["Kuusamo", 65.965, 29.189, 15000, "93600", "Pohjois-Pohjanmaa", "17"],
  ["Parainen", 60.304, 22.301, 15000, "21600", "Varsinais-Suomi", "02"],
  ["Loviisa", 60.457, 26.225, 14000, "07900", "Uusimaa", "01"],
  ["Paimio", 60.457, 22.688, 11000, "21530", "Varsinais-Suomi", "02"],
  ["Kitee", 62.098, 30.137, 10000, "82500", "Pohjois-Karjala", "12"],
  ["Hanko", 59.823, 22.968, 8000, "10900", "Uusimaa", "01"],
  ["Sodankylä", 67.417, 26.59, 8000, "99600", "Lappi", "19"],
  ["Ivalo", 68.658, 27.54, 4000, "99800", "Lappi", "19"],
];

const STREETS = [
  "Kauppakatu",
  "Koulukatu",
  "Puistokatu",
  "Asemakatu",
  "Rantatie",
  "Kirkkokatu",
  "Myllytie",
  "Teollisuuskatu",
  "Mäntytie",
  "Koivutie",
  "Kuusitie",
  "Pihlajatie",
  "Rautatienkatu",
  "Torikatu",
  "Sairaalakatu",
  "Keskuskatu",
  "Hämeentie",
  "Satamakatu",
  "Linnankatu",
  "Kalevankatu",
  "Väinönkatu",
  "Otsolankatu",
  "Sammonkatu",
  "Tehtaankatu",
  "Pajatie",
  "Peltotie",
  "Harjutie",
  "Kangastie",
  "Jokikatu",
  "Vapaudenkatu",
];
// [branch, carrier code, chain name, carrier type, weight]
const CHAINS: [string, string, string, string, number][] = [
  ["fi.posti", "fi_posti", "K-Market", "PICKUPPOINT", 14],
  ["fi.posti", "fi_posti", "S-market", "PICKUPPOINT", 8],
  ["fi.posti", "fi_posti", "Posti Pakettiautomaatti", "PARCELLOCKER", 24],
  ["fi.posti", "fi_posti", "Posti", "POSTOFFICE", 4],
  ["fi.matkahuolto", "fi_matkahuolto", "R-Kioski", "PICKUPPOINT", 14],
  ["fi.matkahuolto", "fi_matkahuolto", "Matkahuolto Lähellä-paketti Sale", "PICKUPPOINT", 8],
  ["fi.matkahuolto", "fi_matkahuolto", "Matkahuolto Pakettiautomaatti", "PARCELLOCKER", 10],
  ["fi.db_schenker", "fi_db_schenker", "DB Schenker Noutopiste", "PICKUPPOINT", 10],
  ["fi.db_schenker", "fi_db_schenker", "Lidl", "PICKUPPOINT", 8],
];
const HOURS = [
  "Mon-Fri 7-21, Sat 8-21, Sun 10-21",
  "Mon-Sat 7-22, Sun 10-22",
  "Mon-Sun 0-24",
  "Mon-Fri 8-20, Sat 9-16",
  "Mon-Fri 6-22, Sat 8-22, Sun 10-22",
];

/** mulberry32: a tiny, well-known 32-bit PRNG; enough for reproducible test data (not for secrets). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KM_PER_DEG_LAT = 111.195;

export interface GeneratedDirectory {
  points: PickupPoint[];
  postalCodes: PostalCodeLocation[];
}

export function generateDirectory(count: number, seed = 1): GeneratedDirectory {
  const rand = prng(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(rand() * items.length)]!;
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const offset = ([lat, lon]: [number, number], dxKm: number, dyKm: number): [number, number] => [
    Math.round((lat + dyKm / KM_PER_DEG_LAT) * 1e5) / 1e5,
    Math.round((lon + dxKm / (KM_PER_DEG_LAT * Math.cos((lat * Math.PI) / 180))) * 1e5) / 1e5,
  ];

  // Postal codes per town: real first code, then steps of 10, skipping codes another town already took.
  const used = new Set<string>();
  const postalCodes: PostalCodeLocation[] = [];
  const towns = TOWNS.map(([name, lat, lon, population, codes, region, regionCode]) => {
    const wanted = Array.isArray(codes)
      ? codes.length
      : Math.min(40, Math.max(1, Math.round(Math.sqrt(population) / 30)));
    const radiusKm = 1.5 + 6 * Math.sqrt(population / 675_000);
    const mine: PostalCodeLocation[] = [];
    let next = Array.isArray(codes) ? 0 : Number(codes);
    for (let i = 0; mine.length < wanted; i++) {
      let code: string;
      if (Array.isArray(codes)) code = codes[i]!;
      else {
        code = String(next).padStart(5, "0");
        next += 10;
      }
      if (used.has(code)) continue;
      used.add(code);
      // The first code is the centre; the others spread uniformly over the town's disc.
      const r = i === 0 ? 0 : radiusKm * Math.sqrt(rand());
      const angle = 2 * Math.PI * rand();
      const location: PostalCodeLocation = {
        country: "FI",
        postalcode: code,
        place_name: name,
        admin_name1: region,
        admin_code1: regionCode,
        admin_name2: name,
        admin_code2: null,
        admin_name3: null,
        admin_code3: null,
        coordinates: offset([lat, lon], r * Math.cos(angle), r * Math.sin(angle)),
        accuracy: 4,
      };
      mine.push(location);
      postalCodes.push(location);
    }
    return { name, population, codes: mine };
  });

  const cumulative: number[] = [];
  towns.reduce((sum, t) => (cumulative.push(sum + t.population), sum + t.population), 0);
  const chainWeights: number[] = [];
  CHAINS.reduce((sum, c) => (chainWeights.push(sum + c[4]), sum + c[4]), 0);
  const pickWeighted = (cum: number[]) => {
    const x = rand() * cum[cum.length - 1]!;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };

  const ids = new Set<string>();
  const points: PickupPoint[] = [];
  while (points.length < count) {
    const town = towns[pickWeighted(cumulative)]!;
    const code = pick(town.codes);
    const [branch, carrier, chain, type] = CHAINS[pickWeighted(chainWeights)]!;
    const id = Array.from({ length: 3 }, () =>
      Math.floor(rand() * 0x100000000)
        .toString(16)
        .padStart(8, "0"),
    ).join("");
    if (ids.has(id)) continue;
    ids.add(id);
    const street = pick(STREETS);
    const name = `${chain} ${town.name} ${street}`;
    const carrierId = String(10000 + Math.floor(rand() * 890000));
    points.push({
      id,
      name,
      address: `${street} ${1 + Math.floor(rand() * 60)}`,
      postalcode: code.postalcode,
      city: town.name.toUpperCase(),
      country: "FI",
      coordinates: offset(
        code.coordinates,
        Math.max(-2, Math.min(2, 0.6 * gauss())),
        Math.max(-2, Math.min(2, 0.6 * gauss())),
      ),
      branch,
      location_info: type === "PARCELLOCKER" ? "Mon-Sun 0-24" : rand() < 0.15 ? null : pick(HOURS),
      carrier_info: {
        [carrier]:
          carrier === "fi_posti"
            ? { id: carrierId, label_name: name.slice(0, 200), type, office: code.postalcode }
            : { id: carrierId, type },
      },
      kind: carrierTypeKind(type),
    });
  }
  return { points, postalCodes };
}

const csvCell = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export function pointsAsCsv(points: readonly PickupPoint[]): string {
  const header = "id,name,address,postalcode,city,country,lat,lon,branch,location_info,carrier_info";
  const rows = points.map((p) =>
    [
      p.id,
      p.name,
      p.address,
      p.postalcode,
      p.city,
      p.country,
      String(p.coordinates[0]),
      String(p.coordinates[1]),
      p.branch,
      p.location_info ?? "",
      JSON.stringify(p.carrier_info),
    ]
      .map(csvCell)
      .join(","),
  );
  return [header, ...rows].join("\n") + "\n";
}

export function pointsAsJson(points: readonly PickupPoint[]): string {
  return "[\n" + points.map((p) => JSON.stringify(p)).join(",\n") + "\n]\n";
}

function main() {
  const { values } = parseArgs({
    options: {
      count: { type: "string", default: "50000" },
      out: { type: "string" },
      "postal-codes": { type: "string" },
      seed: { type: "string", default: "1" },
      format: { type: "string" },
    },
  });
  const count = Number(values.count);
  const seed = Number(values.seed);
  const format = values.format ?? (values.out?.toLowerCase().endsWith(".csv") ? "csv" : "json");
  if (
    !values.out ||
    !Number.isInteger(count) ||
    count < 1 ||
    !Number.isInteger(seed) ||
    !["json", "csv"].includes(format)
  ) {
    console.error(
      "usage: npm run generate:pickup-points -- --count 50000 --out FILE [--postal-codes FILE2] [--seed N] [--format json|csv]",
    );
    process.exit(2);
  }
  const started = performance.now();
  const { points, postalCodes } = generateDirectory(count, seed);
  writeFileSync(values.out, format === "csv" ? pointsAsCsv(points) : pointsAsJson(points));
  if (values["postal-codes"])
    writeFileSync(values["postal-codes"], postalCodes.map(formatGeoNamesLine).join("\n") + "\n");
  const ms = Math.round(performance.now() - started);
  console.log(
    `wrote ${points.length} pickup points (${format}) to ${values.out}` +
      (values["postal-codes"] ? ` and ${postalCodes.length} postal codes to ${values["postal-codes"]}` : "") +
      ` in ${ms} ms (seed ${seed})`,
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
